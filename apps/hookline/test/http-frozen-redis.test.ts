import { randomBytes } from 'node:crypto';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import {
  spawnEntry,
  startRedisServer,
  TEST_DATABASE_URL,
  usePostgres,
  useRedis,
  waitUntil,
} from '@hookline/testing';

const API_KEY = 'k'.repeat(32);
const ADMIN = `Basic ${Buffer.from('ops:admin-password-1').toString('base64')}`;

// A Redis that accepts connections and never answers (its process frozen with SIGSTOP; a partition that drops
// packets looks the same): the production HTTP tier answers every request that needs Redis with 503
// REDIS_UNAVAILABLE once a command has waited its deadline, saying that the request may still take effect,
// instead of holding it until Redis answers again. Nothing listening is the other outage, answered at once
// (apps/api errors.test.ts). Jest's time limit is the bound: without the deadline, every request below waits
// for the server, which is thawed only once they have all been answered.
describe('the HTTP tier while its Redis is frozen', () => {
  const ctx = useRedis('frozen');
  const pg = usePostgres('frozen');

  it('answers 503 REDIS_UNAVAILABLE on the API, the website and the admin area; serves again once it thaws', async () => {
    const redis = await startRedisServer();
    ctx.onCleanup(() => redis.kill());
    const server = spawnEntry('apps/hookline/src/http-main.ts', {
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_API_KEY: API_KEY,
      HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
      HOOKLINE_ADMIN_USER: 'ops',
      HOOKLINE_ADMIN_PASSWORD: 'admin-password-1',
      DATABASE_URL: TEST_DATABASE_URL,
      HOOKLINE_DATABASE_SCHEMA: pg.schema,
      LOG_LEVEL: 'info',
    });
    ctx.onCleanup(async () => {
      server.kill('SIGKILL');
      await server.exited;
    });
    await server.waitForOutput('Server listening at');
    const base = `http://127.0.0.1:${/Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(server.output())![1]}`;
    await waitUntil(async () => (await fetch(`${base}/readyz`)).ok, 'the HTTP tier to be ready');
    // No worker runs: nothing is delivered, so the hook's address is never asked.
    const hook = { url: 'https://www.example.com/webhook', format: 'json' };

    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const account = (await (await api('POST', '/v1/accounts', { name: 'Acme' })).json()) as { id: string };
    const hooks = `/v1/accounts/${account.id}/hooks`;
    expect((await api('POST', hooks, hook)).status).toBe(201);
    const link = await api('POST', `/v1/accounts/${account.id}/portal-links`, {});
    const opened = await fetch(((await link.json()) as { url: string }).url, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${base}/`, { headers: { cookie } })).status).toBe(200);
    const event = { id: 'pbx-call-frozen', type: 'call_created', data: SAMPLE_CALL_DATA };

    const [publish, create, list, page, board] = await redis.whileFrozen(() =>
      Promise.all([
        api('POST', `/v1/accounts/${account.id}/events`, event),
        api('POST', hooks, hook),
        api('GET', hooks),
        fetch(`${base}/`, { headers: { cookie } }),
        fetch(`${base}/admin/queues/api/queues?account=${account.id}`, { headers: { authorization: ADMIN } }),
      ]),
    );
    const late = (advice: string) => ({
      error: {
        code: 'REDIS_UNAVAILABLE',
        message: `Redis, the queue store, did not answer within 5000 ms; ${advice}`,
      },
    });
    for (const answer of [publish, create, list, board]) {
      expect([answer.status, answer.headers.get('retry-after')]).toEqual([503, '5']);
    }
    expect(await publish.json()).toEqual(
      late(
        'the request may still take effect: send the event again with the same id (an event is accepted once)',
      ),
    );
    expect(await create.json()).toEqual(late('the request may still take effect: check before retrying it'));
    expect(await list.json()).toEqual(late('retry shortly'));
    expect(await board.json()).toMatchObject({ error: { code: 'REDIS_UNAVAILABLE' } });
    expect([page.status, page.headers.get('retry-after')]).toEqual([503, '5']);
    expect(await page.text()).toContain('Try again in a moment');

    // Thawed: the same connections serve again, and the publish sent again with its id is accepted once.
    const again = await waitUntil(async () => {
      const res = await api('POST', `/v1/accounts/${account.id}/events`, event);
      return res.status === 503 ? undefined : res;
    }, 'the API to serve again');
    expect([200, 202]).toContain(again.status);
    const listed = await api('GET', hooks);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(1);
    expect((await fetch(`${base}/`, { headers: { cookie } })).status).toBe(200);
  }, 60_000);
});
