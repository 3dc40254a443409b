import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { HookView } from '@hookline/core';
import { hookQueueLayout } from '@hookline/redis';
import { connectRedis } from '@hookline/testing';
import type { DeliverJobData } from '@hookline/queue';
import { AUTH, useAdmin } from './test-support/admin-harness';

// Bull Board driven through its own HTTP routes, with a plain BullMQ Worker standing in for apps/worker to show
// what the hook receives.

const a = useAdmin();
const { mount, call, queuePath, publish } = a;

function standInWorker(): void {
  const connection = connectRedis();
  a.ctx.onCleanup(() => connection.disconnect());
  const worker = new Worker(
    a.keys.hookQueueName(a.hook.id),
    async (job) => {
      await fetch(a.receiver.url(), {
        method: 'POST',
        body: (job.data as DeliverJobData).event.fields.call_id,
      });
    },
    { connection, prefix: a.keys.prefix, concurrency: 1 },
  );
  a.ctx.closeLater(worker);
}

describe('Bull Board for admins', () => {
  it('answers 401 with a Basic challenge without admin credentials, or with wrong ones', async () => {
    await mount();
    const wrong = { authorization: `Basic ${Buffer.from('ops:guess').toString('base64')}` };
    for (const [method, url, headers] of [
      ['GET', '/admin', {}],
      ['GET', '/admin/queues', {}],
      ['GET', '/admin/queues/api/queues', {}],
      ['PUT', `${queuePath(a.hook.id)}/resume`, {}],
      ['PUT', `${queuePath(a.hook.id)}/pause`, wrong],
      ['GET', '/admin/queues', { authorization: 'Bearer whatever' }],
    ] as const) {
      const res = await call(method, url, headers);
      expect([method, url, res.statusCode]).toEqual([method, url, 401]);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="hookline admin"/);
    }
    expect(await a.hookQueues.isPaused(a.hook.id)).toBe(false);
    // A browser that cancels its sign-in prompt shows the body: a page in words, not JSON.
    const browser = await call('GET', '/admin', { accept: 'text/html,application/xhtml+xml' });
    expect([browser.statusCode, browser.headers.get('content-type')]).toEqual([
      401,
      'text/html; charset=utf-8',
    ]);
    expect(browser.body).toContain('Sign in with the admin user and password');
    expect(JSON.parse((await call('GET', '/admin/queues/api/queues', {})).body)).toMatchObject({
      error: { code: 'UNAUTHORIZED' },
    });
  });

  it('answers 503 with a retry time on every route while Redis cannot be reached, never a 500', async () => {
    // A connection to a port nobody listens on: every command fails as it does while Redis is down.
    const down = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, enableOfflineQueue: false });
    a.ctx.onCleanup(() => down.disconnect());
    await mount(undefined, down);
    for (const [method, url] of [
      ['GET', '/admin'],
      ['GET', '/admin/queues'],
      ['GET', '/admin/queues/api/queues'],
      ['PUT', `${queuePath(a.hook.id)}/pause`],
    ] as const) {
      const res = await call(method, url);
      expect([method, url, res.statusCode]).toEqual([method, url, 503]);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(res.body)).toEqual({
        error: {
          code: 'REDIS_UNAVAILABLE',
          message: 'The service cannot reach Redis, its queue store; retry shortly',
        },
      });
    }
  });

  it('after 20 wrong passwords from one address it answers 429 to that address, even with the right one', async () => {
    await mount();
    const wrong = { authorization: `Basic ${Buffer.from('ops:guess').toString('base64')}` };
    // Requests without credentials (a browser before it prompts) are not failures.
    for (let i = 0; i < 25; i += 1) expect((await call('GET', '/admin', {})).statusCode).toBe(401);
    for (let i = 0; i < 20; i += 1) expect((await call('GET', '/admin', wrong)).statusCode).toBe(401);
    const blocked = await call('GET', '/admin/queues');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(JSON.parse(blocked.body)).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    const page = await call('GET', '/admin', { accept: 'text/html' });
    expect(page.statusCode).toBe(429);
    expect(page.body).toMatch(
      /Too many failed admin sign-ins from this address: try again in 1[45] minutes\./,
    );
    // Nothing it asked for happened.
    expect((await call('PUT', `${queuePath(a.hook.id)}/pause`)).statusCode).toBe(429);
    expect(await a.hookQueues.isPaused(a.hook.id)).toBe(false);
  });

  it('finds an account’s hooks by name on the admin page and registers only those on the board', async () => {
    await mount();
    const other = await a.store.hooks.create(
      a.hook.account_id,
      {
        url: 'https://billing.example.com/in',
        format: 'form',
        auth: { scheme: 'none' },
        description: 'Billing',
      },
      'operator',
    );
    const page = await call('GET', `/admin?account=${a.hook.account_id}&name=crm`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('CRM');
    expect(page.body).not.toContain('secret-in-query');

    const board = await call('GET', '/admin/queues/api/queues');
    const queues = (
      JSON.parse(board.body) as { queues: { name: string; displayName: string; isPaused: boolean }[] }
    ).queues;
    expect(queues).toEqual([
      expect.objectContaining({
        name: a.keys.hookQueueName(a.hook.id),
        displayName: `CRM (${a.hook.id})`,
        isPaused: false,
      }),
    ]);
    expect(queues.map((q) => q.name)).not.toContain(a.keys.hookQueueName(other.id));
  });

  it('says so when nothing matches, and that a name alone needs its account', async () => {
    await mount();
    const none = await call('GET', `/admin?account=${a.hook.account_id}&name=nothing-like-it`);
    expect(none.body).toContain(
      `<p role="status">No hooks found for the account “${a.hook.account_id}” with a name containing “nothing-like-it”.</p>`,
    );
    // No empty table under the words.
    expect(none.body).not.toContain('<h2>Hooks found</h2>');
    const alone = await call('GET', '/admin?name=crm');
    expect(alone.body).toContain(
      '<p role="status">Give the account id too: hook names are looked for within one account.</p>',
    );
  });

  it('serves the board itself to an admin', async () => {
    await mount();
    const res = await call('GET', `/admin/queues?hook=${a.hook.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.body).toContain('<base href="/admin/queues/" />');
    const script = /src="(static\/js\/main\.[0-9a-f]+\.js)"/.exec(res.body)?.[1];
    const asset = await call('GET', `/admin/queues/${script}`);
    expect([asset.statusCode, asset.headers.get('content-type')]).toEqual([
      200,
      'application/javascript; charset=utf-8',
    ]);
    expect((await call('GET', '/admin/queues/static/..%2F..%2Fpackage.json')).statusCode).toBe(404);
  });

  it('resume on the board re-enables the hook: state active at once, held events delivered in order', async () => {
    await mount();
    await a.control.suspend(a.hook.id, '3 consecutive failures', 'monitor');
    standInWorker();
    await publish('c1', 'c2', 'c3');
    expect(a.receiver.requests).toHaveLength(0);

    // A link straight to the queue works without a search first (another process may have served that).
    const res = await call('PUT', `${queuePath(a.hook.id)}/resume`);
    expect(res.statusCode).toBe(200);
    expect((await a.store.hooks.get(a.hook.account_id, a.hook.id))?.state).toBe('active');
    await a.receiver.waitFor(3);
    expect(a.receiver.requests.map((r) => r.body.toString())).toEqual(['c1', 'c2', 'c3']);
    const [latest] = await a.store.activity.list(a.hook.account_id, 1);
    expect(latest).toMatchObject({ kind: 'hook.enabled', actor: 'admin:ops', hook_id: a.hook.id });
  });

  it('pause on the board is a suspension by an admin', async () => {
    await mount();
    const res = await call('PUT', `${queuePath(a.hook.id)}/pause`);
    expect(res.statusCode).toBe(200);
    const view = await a.store.hooks.get(a.hook.account_id, a.hook.id);
    expect(view).toMatchObject({ state: 'suspended', suspended_reason: 'paused by admin' });
    const [latest] = await a.store.activity.list(a.hook.account_id, 1);
    expect(latest).toMatchObject({ kind: 'hook.suspended', actor: 'admin:ops', detail: 'paused by admin' });
    const page = await call('GET', '/admin');
    expect(page.body).toContain('paused by admin');

    // The customer cannot undo it: only an admin resumes an admin's pause.
    await expect(
      a.control.enable(a.hook.account_id, a.hook.id, 'deliver', `customer:${a.hook.account_id}`),
    ).rejects.toThrow('only an administrator can resume it');
    expect((await a.store.hooks.get(a.hook.account_id, a.hook.id))?.state).toBe('suspended');
    expect((await call('PUT', `${queuePath(a.hook.id)}/resume`)).statusCode).toBe(200);
    expect((await a.store.hooks.get(a.hook.account_id, a.hook.id))?.state).toBe('active');
  });

  it('pause on the board of a hook suspended by its failures makes it the admin’s hold', async () => {
    await mount();
    await a.control.suspend(a.hook.id, '3 consecutive failures', 'monitor');
    const pause = (reason: string) =>
      call(
        'PUT',
        `${queuePath(a.hook.id)}/pause`,
        { ...AUTH, 'content-type': 'application/json' },
        JSON.stringify({ reason }),
      );
    expect((await pause('endpoint migration')).statusCode).toBe(200);
    const view = await a.store.hooks.get(a.hook.account_id, a.hook.id);
    expect(view).toMatchObject({
      state: 'suspended',
      suspended_reason: 'paused by admin: endpoint migration',
    });
    // Now the admin's: the customer cannot lift it.
    await expect(
      a.control.enable(a.hook.account_id, a.hook.id, 'deliver', `customer:${a.hook.account_id}`),
    ).rejects.toThrow('only an administrator can resume it');
    // A second pause of the admin's hold changes nothing.
    expect((await pause('another reason')).statusCode).toBe(200);
    expect((await a.store.hooks.get(a.hook.account_id, a.hook.id))?.suspended_reason).toBe(
      'paused by admin: endpoint migration',
    );
  });

  it('pause on the board carries the reason the admin typed, as typed', async () => {
    await mount();
    const pause = (body: unknown) =>
      call(
        'PUT',
        `${queuePath(a.hook.id)}/pause`,
        { ...AUTH, 'content-type': 'application/json' },
        JSON.stringify(body),
      );
    const res = await pause({ reason: '  Your endpoint answers slowly; call us ' });
    expect(res.statusCode).toBe(200);
    const view = await a.store.hooks.get(a.hook.account_id, a.hook.id);
    expect(view?.suspended_reason).toBe('paused by admin: Your endpoint answers slowly; call us');
  });

  it.each([
    ['a line break', { reason: 'Your endpoint answers\nslowly' }, 'must not contain control characters'],
    ['a NUL', { reason: 'slow\u0000' }, 'must not contain control characters'],
    [
      'a line separator',
      { reason: 'slow\u2028endpoint' },
      'must be one line without direction controls (U+2028, U+2029, U+202A–U+202E, U+2066–U+2069)',
    ],
    [
      'a right-to-left override',
      { reason: 'paid \u202eusd 001' },
      'must be one line without direction controls (U+2028, U+2029, U+202A–U+202E, U+2066–U+2069)',
    ],
    ['a lone surrogate', { reason: 'slow \ud800' }, 'must be well-formed Unicode (no lone surrogates)'],
    ['more than 300 characters', { reason: 'x'.repeat(301) }, 'must be at most 300 characters'],
    ['a number', { reason: 123 }, 'must be a string'],
  ])('refuses a pause whose reason has %s, naming it, and pauses nothing', async (_label, body, problem) => {
    await mount();
    const res = await call(
      'PUT',
      `${queuePath(a.hook.id)}/pause`,
      { ...AUTH, 'content-type': 'application/json' },
      JSON.stringify(body),
    );
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: `reason ${problem}`,
        details: [{ field: 'reason', message: problem }],
      },
    });
    expect((await a.store.hooks.get(a.hook.account_id, a.hook.id))?.state).toBe('active');
  });

  it("sends the website's browser protections and a board page that loads nothing from other origins", async () => {
    await mount();
    for (const path of ['/admin', '/admin/queues']) {
      const res = await call('GET', path);
      expect(res.statusCode).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[a-z]/);
    }
    // The 401 challenge too: a page that cannot be shown must not be framed either.
    expect((await call('GET', '/admin/queues', {})).headers.get('x-frame-options')).toBe('DENY');
  });

  it("opens the board's own address on the suspended hooks, ready to resume", async () => {
    await mount();
    await a.control.suspend(a.hook.id, 'paused by admin', 'admin:ops');
    expect((await call('GET', '/admin/queues')).statusCode).toBe(200);
    const listed = JSON.parse((await call('GET', '/admin/queues/api/queues')).body) as {
      queues: { name: string; hasWorkers: boolean | null }[];
    };
    expect(listed.queues.map((q) => q.name)).toEqual([a.keys.hookQueueName(a.hook.id)]);
    // Workers attach only while a a.hook has events: the board must not warn "No workers" for an idle queue.
    expect(listed.queues.map((q) => q.hasWorkers)).toEqual([null]);
  });

  it('refuses board actions that would lose events or send one twice', async () => {
    await mount();
    await publish('c1');
    for (const url of [
      `${queuePath(a.hook.id)}/empty`,
      `${queuePath(a.hook.id)}/retry/failed`,
      `${queuePath(a.hook.id)}/obliterate`,
      // Pause all and resume all: the board no longer offers them (every hook queue is read-only to it).
      '/admin/queues/api/queues/pause',
      '/admin/queues/api/queues/resume',
    ]) {
      const res = await call('PUT', url);
      expect([url, res.statusCode]).toEqual([url, 403]);
    }
    expect(await a.hookQueues.waitingCount(a.hook.id)).toBe(1);
    expect(await a.hookQueues.isPaused(a.hook.id)).toBe(false);
  });

  it('tells Bull Board that hook queues are read-only, so it offers no action that would be refused', async () => {
    await mount();
    await call('GET', `/admin/queues?hook=${a.hook.id}`);
    const { queues } = JSON.parse((await call('GET', '/admin/queues/api/queues')).body) as {
      queues: Record<string, unknown>[];
    };
    // What the board's UI is told: readOnlyMode hides every queue and job action (retry, promote, clean, empty,
    // add, duplicate, remove, concurrency, rate limit), and with it Bull Board's own pause and resume.
    expect(queues).toEqual([
      expect.objectContaining({
        name: a.keys.hookQueueName(a.hook.id),
        readOnlyMode: true,
        allowRetries: false,
        allowCompletedRetries: false,
      }),
    ]);
  });

  it("offers pause and resume on the board's queue page from a script of hookline's own", async () => {
    await mount();
    const queueName = encodeURIComponent(a.keys.hookQueueName(a.hook.id));
    const page = await call('GET', `/admin/queues/queue/${queueName}`);
    const src = /<script defer src="([^"]+)" data-board="\/admin\/queues"><\/script><\/body>/.exec(
      page.body,
    )?.[1];
    expect(src).toMatch(/^\/admin\/queues\/hookline\/board-actions\.[0-9a-f]{12}\.js$/);
    const script = await call('GET', src!);
    expect([script.statusCode, script.headers.get('content-type')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
    ]);

    // The state its button shows, and the answer to pressing it.
    const state = `/admin/queues/hookline/queues/${queueName}`;
    expect(JSON.parse((await call('GET', state)).body)).toEqual({
      name: a.keys.hookQueueName(a.hook.id),
      display_name: `CRM (${a.hook.id})`,
      paused: false,
    });
    expect(JSON.parse((await call('PUT', `${queuePath(a.hook.id)}/pause`)).body)).toEqual({ paused: true });
    expect(JSON.parse((await call('GET', state)).body)).toMatchObject({ paused: true });
    expect(JSON.parse((await call('PUT', `${queuePath(a.hook.id)}/resume`)).body)).toEqual({ paused: false });

    expect((await call('GET', state, {})).statusCode).toBe(401);
    expect((await call('GET', '/admin/queues/hookline/queues/hook-%7Bhk_0000000000%7D')).statusCode).toBe(
      404,
    );
    expect((await call('PUT', `${queuePath('hk_0000000000')}/pause`)).statusCode).toBe(404);
  });

  it('refuses those actions however the path is spelled, and changes nothing', async () => {
    await mount();
    await publish('c1');
    const spelled = (path: string) => path.replace('/admin/queues/', '/admin/%71ueues/');
    for (const [method, url] of [
      ['PUT', spelled(`${queuePath(a.hook.id)}/empty`)],
      ['PUT', spelled(`${queuePath(a.hook.id)}/retry/completed`)],
      ['PUT', spelled(`${queuePath(a.hook.id)}/concurrency`)],
      ['PUT', `/admin/queues/api/queues/${encodeURIComponent(a.keys.hookQueueName(a.hook.id))}/%65mpty`],
      ['PUT', spelled(`${queuePath(a.hook.id)}/clean/completed`)],
    ] as const) {
      const res = await fetch(`${a.origin}${url}`, {
        method,
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: '{"concurrency":4}',
      });
      expect([url, res.status]).toEqual([url, 403]);
    }
    expect(await a.hookQueues.waitingCount(a.hook.id)).toBe(1);
    expect(await a.ctx.redis.hget(hookQueueLayout(a.keys, a.hook.id).meta, 'concurrency')).toBe('1');
  });

  it('keeps at most maxQueues on the board, dropping the least recently opened', async () => {
    await mount(2);
    const more: HookView[] = [];
    for (const name of ['B', 'C'])
      more.push(
        await a.store.hooks.create(
          a.hook.account_id,
          { url: 'https://example.com/x', format: 'json', auth: { scheme: 'none' }, description: name },
          'operator',
        ),
      );
    for (const id of [a.hook.id, more[0]!.id, more[1]!.id]) await call('GET', `/admin/queues?hook=${id}`);
    const board = await call('GET', '/admin/queues/api/queues');
    const names = (JSON.parse(board.body) as { queues: { name: string }[] }).queues.map((q) => q.name).sort();
    expect(names).toEqual([a.keys.hookQueueName(more[0]!.id), a.keys.hookQueueName(more[1]!.id)].sort());
  });
});
