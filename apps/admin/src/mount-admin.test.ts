import { randomBytes } from 'node:crypto';
import { Worker } from 'bullmq';
import Fastify, { type FastifyInstance } from 'fastify';
import type { HookView } from '@hookline/core';
import { hookQueueLayout, type HookQueues, type RedisKeys } from '@hookline/redis';
import type { Store } from '@hookline/store';
import { createServices } from '@hookline/services';
import { connectRedis, startReceiver, useRedis, type Receiver } from '@hookline/testing';
import type { HookControl } from '@hookline/suspension';
import type { DeliverJobData } from '@hookline/queue';
import { Producer } from '@hookline/queue';
import { mountAdmin } from './mount-admin';

// Bull Board driven through its own HTTP routes, over real HTTP on 127.0.0.1 (fastify's inject() needs an
// ESM-only package jest cannot load on Node 20), with a plain BullMQ Worker standing in for apps/worker to
// show what the hook receives.

const ctx = useRedis('bull-board');
const ADMIN = { user: 'ops', password: 'correct horse battery staple' };
const AUTH = { authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}` };
let keys: RedisKeys;
let store: Store;
let hookQueues: HookQueues;
let control: HookControl;
let app: FastifyInstance;
let origin: string;
let receiver: Receiver;
let hook: HookView;

beforeEach(async () => {
  const services = createServices({
    redis: ctx.redis,
    settings: {
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_HOLD_MAX: 10_000,
      HOOKLINE_DELIVERY_LOG_MAX: 1000,
    },
    secretKey: randomBytes(32),
  });
  ctx.onCleanup(() => services.close());
  ({ keys, hookQueues, store, control } = services);
  receiver = ctx.closeLater(await startReceiver());
  const account = await store.accounts.create({ name: 'Acme' });
  hook = await store.hooks.create(
    account.id,
    {
      url: receiver.url('/crm?token=secret-in-query'),
      format: 'json',
      auth: { scheme: 'none' },
      description: 'CRM',
    },
    'operator',
  );
});

async function mount(maxQueues?: number): Promise<FastifyInstance> {
  // Closing must not wait for the keep-alive sockets of the test's own fetch pool.
  app = Fastify({ forceCloseConnections: true });
  ctx.onCleanup(() => app.close());
  await mountAdmin(app, {
    redis: ctx.redis,
    keys,
    hooks: store.hooks,
    control,
    admin: ADMIN,
    ...(maxQueues ? { maxQueues } : {}),
  });
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

interface Answer {
  readonly statusCode: number;
  readonly headers: Headers;
  readonly body: string;
}

async function call(method: string, path: string, headers: Record<string, string> = AUTH): Promise<Answer> {
  const res = await fetch(`${origin}${path}`, { method, headers });
  return { statusCode: res.status, headers: res.headers, body: await res.text() };
}

const queuePath = (hookId: string) =>
  `/admin/queues/api/queues/${encodeURIComponent(keys.hookQueueName(hookId))}`;

function standInWorker(): void {
  const connection = connectRedis();
  ctx.onCleanup(() => connection.disconnect());
  const worker = new Worker(
    keys.hookQueueName(hook.id),
    async (job) => {
      await fetch(receiver.url(), {
        method: 'POST',
        body: (job.data as DeliverJobData).event.fields.call_id,
      });
    },
    { connection, prefix: keys.prefix, concurrency: 1 },
  );
  ctx.closeLater(worker);
}

async function publish(...callIds: string[]): Promise<void> {
  const producer = ctx.closeLater(new Producer({ redis: ctx.redis, keys }));
  const data = { direction: 'outbound', from: 'jonas1', from_cnam: 'Jonas 1', to: '78791245', rate: '0.0' };
  for (const call_id of callIds)
    await producer.publish(hook.account_id, { type: 'call_created', data: { ...data, call_id } });
}

describe('Bull Board for admins', () => {
  it('answers 401 with a Basic challenge without admin credentials, or with wrong ones', async () => {
    await mount();
    const wrong = { authorization: `Basic ${Buffer.from('ops:guess').toString('base64')}` };
    for (const [method, url, headers] of [
      ['GET', '/admin', {}],
      ['GET', '/admin/queues', {}],
      ['GET', '/admin/queues/api/queues', {}],
      ['PUT', `${queuePath(hook.id)}/resume`, {}],
      ['PUT', `${queuePath(hook.id)}/pause`, wrong],
      ['GET', '/admin/queues', { authorization: 'Bearer whatever' }],
    ] as const) {
      const res = await call(method, url, headers);
      expect([method, url, res.statusCode]).toEqual([method, url, 401]);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="hookline admin"/);
    }
    expect(await hookQueues.isPaused(hook.id)).toBe(false);
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
    // Nothing it asked for happened.
    expect((await call('PUT', `${queuePath(hook.id)}/pause`)).statusCode).toBe(429);
    expect(await hookQueues.isPaused(hook.id)).toBe(false);
  });

  it('finds an account’s hooks by name on the admin page and registers only those on the board', async () => {
    await mount();
    const other = await store.hooks.create(
      hook.account_id,
      {
        url: 'https://billing.example.com/in',
        format: 'form',
        auth: { scheme: 'none' },
        description: 'Billing',
      },
      'operator',
    );
    const page = await call('GET', `/admin?account=${hook.account_id}&name=crm`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('CRM');
    expect(page.body).not.toContain('secret-in-query');

    const board = await call('GET', '/admin/queues/api/queues');
    const queues = (
      JSON.parse(board.body) as { queues: { name: string; displayName: string; isPaused: boolean }[] }
    ).queues;
    expect(queues).toEqual([
      expect.objectContaining({
        name: keys.hookQueueName(hook.id),
        displayName: `CRM (${hook.id})`,
        isPaused: false,
      }),
    ]);
    expect(queues.map((q) => q.name)).not.toContain(keys.hookQueueName(other.id));
  });

  it('serves the board itself to an admin', async () => {
    await mount();
    const res = await call('GET', `/admin/queues?hook=${hook.id}`);
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
    await control.suspend(hook.id, '3 consecutive failures', 'monitor');
    standInWorker();
    await publish('c1', 'c2', 'c3');
    expect(receiver.requests).toHaveLength(0);

    // A link straight to the queue works without a search first (another process may have served that).
    const res = await call('PUT', `${queuePath(hook.id)}/resume`);
    expect(res.statusCode).toBe(200);
    expect((await store.hooks.get(hook.account_id, hook.id))?.state).toBe('active');
    await receiver.waitFor(3);
    expect(receiver.requests.map((r) => r.body.toString())).toEqual(['c1', 'c2', 'c3']);
    const [latest] = await store.activity.list(hook.account_id, 1);
    expect(latest).toMatchObject({ kind: 'hook.enabled', actor: 'admin:ops', hook_id: hook.id });
  });

  it('pause on the board is a suspension by an admin', async () => {
    await mount();
    const res = await call('PUT', `${queuePath(hook.id)}/pause`);
    expect(res.statusCode).toBe(200);
    const view = await store.hooks.get(hook.account_id, hook.id);
    expect(view).toMatchObject({ state: 'suspended', suspended_reason: 'paused by admin' });
    const [latest] = await store.activity.list(hook.account_id, 1);
    expect(latest).toMatchObject({ kind: 'hook.suspended', actor: 'admin:ops', detail: 'paused by admin' });
    const page = await call('GET', '/admin');
    expect(page.body).toContain('paused by admin');
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
    await control.suspend(hook.id, 'paused by admin', 'admin:ops');
    expect((await call('GET', '/admin/queues')).statusCode).toBe(200);
    const listed = JSON.parse((await call('GET', '/admin/queues/api/queues')).body) as {
      queues: { name: string; hasWorkers: boolean | null }[];
    };
    expect(listed.queues.map((q) => q.name)).toEqual([keys.hookQueueName(hook.id)]);
    // Workers attach only while a hook has events: the board must not warn "No workers" for an idle queue.
    expect(listed.queues.map((q) => q.hasWorkers)).toEqual([null]);
  });

  it('refuses board actions that would lose events or send one twice', async () => {
    await mount();
    await publish('c1');
    for (const url of [
      `${queuePath(hook.id)}/empty`,
      `${queuePath(hook.id)}/retry/failed`,
      `${queuePath(hook.id)}/obliterate`,
    ]) {
      const res = await call('PUT', url);
      expect([url, res.statusCode]).toEqual([url, 403]);
    }
    expect(await hookQueues.waitingCount(hook.id)).toBe(1);
  });

  it('refuses those actions however the path is spelled, and changes nothing', async () => {
    await mount();
    await publish('c1');
    const spelled = (path: string) => path.replace('/admin/queues/', '/admin/%71ueues/');
    for (const [method, url] of [
      ['PUT', spelled(`${queuePath(hook.id)}/empty`)],
      ['PUT', spelled(`${queuePath(hook.id)}/retry/completed`)],
      ['PUT', spelled(`${queuePath(hook.id)}/concurrency`)],
      ['PUT', `/admin/queues/api/queues/${encodeURIComponent(keys.hookQueueName(hook.id))}/%65mpty`],
      ['PUT', spelled(`${queuePath(hook.id)}/clean/completed`)],
    ] as const) {
      const res = await fetch(`${origin}${url}`, {
        method,
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: '{"concurrency":4}',
      });
      expect([url, res.status]).toEqual([url, 403]);
    }
    expect(await hookQueues.waitingCount(hook.id)).toBe(1);
    expect(await ctx.redis.hget(hookQueueLayout(keys, hook.id).meta, 'concurrency')).toBe('1');
  });

  it('keeps at most maxQueues on the board, dropping the least recently opened', async () => {
    await mount(2);
    const more: HookView[] = [];
    for (const name of ['B', 'C'])
      more.push(
        await store.hooks.create(
          hook.account_id,
          { url: 'https://example.com/x', format: 'json', auth: { scheme: 'none' }, description: name },
          'operator',
        ),
      );
    for (const id of [hook.id, more[0]!.id, more[1]!.id]) await call('GET', `/admin/queues?hook=${id}`);
    const board = await call('GET', '/admin/queues/api/queues');
    const names = (JSON.parse(board.body) as { queues: { name: string }[] }).queues.map((q) => q.name).sort();
    expect(names).toEqual([keys.hookQueueName(more[0]!.id), keys.hookQueueName(more[1]!.id)].sort());
  });
});
