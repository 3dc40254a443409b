import { newId, type AttemptRecord } from '@hookline/core';
import { startMonitor } from '@hookline/monitor';
import { HistoryOutbox } from '@hookline/redis';
import { createLogger } from '@hookline/telemetry';
import { TEST_DATABASE_URL, TEST_REDIS_URL, waitUntil, type SpawnedProcess } from '@hookline/testing';
import { spawnEntry } from '@hookline/testing';
import { useHookline } from './harness';

// The history writer runs in the monitor: records go from the hooks' Redis outboxes to PostgreSQL. Killing it
// at any point must lose no record and duplicate none, and a marker lost with a crashed worker is found again.

const HOOKS = 40;
const PER_HOOK = 1000;

function records(accountId: string, hookId: string, count: number, start: number): AttemptRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    attempt_id: newId('att', start + i),
    event_id: newId('evt', start + i),
    event_type: 'call_created',
    call_id: `call-${hookId}-${i}`,
    trigger: 'auto',
    outcome: 'delivered',
    status_code: 200,
    duration_ms: 5,
    attempted_at: new Date(start + i).toISOString(),
    account_id: accountId,
    hook_id: hookId,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:9/h',
      headers: { 'Content-Type': 'x' },
      body: `n=${i}`,
    },
  }));
}

describe('the history writer', () => {
  const h = useHookline();

  const rowCount = async () =>
    (
      await h.history.client.query<{ n: number; ids: number }>(
        'SELECT count(*) AS n, count(DISTINCT attempt_id) AS ids FROM attempts',
      )
    )[0]!;

  function spawnMonitor(): SpawnedProcess {
    const monitor = spawnEntry('apps/hookline/src/monitor-main.ts', {
      REDIS_URL: TEST_REDIS_URL,
      HOOKLINE_QUEUE_PREFIX: h.ctx.prefix,
      HOOKLINE_SECRET_KEY: h.secretKeyHex,
      DATABASE_URL: TEST_DATABASE_URL,
      HOOKLINE_DATABASE_SCHEMA: h.pg.schema,
      HOOKLINE_METRICS_PORT: '0',
    });
    h.ctx.onCleanup(async () => {
      monitor.kill('SIGKILL');
      await monitor.exited;
    });
    return monitor;
  }

  it('killed with SIGKILL mid-stream, loses no record and writes none twice', async () => {
    const account = await h.account();
    const outbox = new HistoryOutbox(h.ctx.redis, h.keys);
    const start = Date.now() - 60_000;
    for (let i = 0; i < HOOKS; i++) {
      const hook = await h.hook(account.id, { url: `http://127.0.0.1:9/h${i}` });
      await outbox.append(hook.id, records(account.id, hook.id, PER_HOOK, start + i * PER_HOOK));
    }
    const total = HOOKS * PER_HOOK;

    const first = spawnMonitor();
    await waitUntil(async () => (await rowCount()).n > 0, 'the first writer to write some records', 30_000);
    first.kill('SIGKILL');
    await first.exited;
    const partial = (await rowCount()).n;

    spawnMonitor();
    await waitUntil(async () => (await rowCount()).n === total, 'every record in the database', 60_000);
    expect(await rowCount()).toEqual({ n: total, ids: total });
    // Nothing is left in Redis: the outboxes are empty, and no hook is marked any more.
    await waitUntil(async () => (await h.ctx.redis.zcard(h.keys.historyDirty())) === 0, 'no hook marked');
    for (const id of await h.store.hooks.listIds(account.id))
      expect(await h.ctx.redis.llen(h.keys.hookHistoryOutbox(id))).toBe(0);
    // The kill did interrupt it: the test is only meaningful if the first writer did not finish alone.
    expect(partial).toBeLessThan(total);
  }, 120_000);

  it('writes records whose hook was never marked (a worker killed right after its outcome), found by the watchdog', async () => {
    const account = await h.account();
    const hook = await h.hook(account.id, { url: 'http://127.0.0.1:9/h' });
    const lost = records(account.id, hook.id, 3, Date.now() - 1000);
    // What the outcome script leaves behind when its process dies before the marker: records, no marker.
    for (const r of lost) await h.ctx.redis.rpush(h.keys.hookHistoryOutbox(hook.id), JSON.stringify(r));
    expect(await h.ctx.redis.zcard(h.keys.historyDirty())).toBe(0);
    const monitor = startMonitor({
      redis: h.ctx.redis,
      keys: h.keys,
      store: h.store,
      history: h.history,
      logger: createLogger('silent', 'history-sweep'),
      config: { HOOKLINE_SUSPEND_AFTER_FAILURES: 10, HOOKLINE_SUSPEND_AFTER_MS: 600_000 },
      blockMs: 100,
      operationsTickMs: 100,
    });
    h.ctx.onCleanup(() => monitor.close());
    await waitUntil(async () => (await rowCount()).n === 3, 'the swept records in the database', 20_000);
    const page = await h.reader.listForHook(hook.id, {}, { limit: 10 });
    expect(page.data.map((r) => r.attempt_id)).toEqual(lost.map((r) => r.attempt_id).reverse());
  });
});
