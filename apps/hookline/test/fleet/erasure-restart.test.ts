import {
  spawnEntry,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  waitUntil,
  type SpawnedProcess,
} from '@hookline/testing';
import { newId, type AttemptRecord } from '@hookline/core';
import { HistoryOutbox } from '@hookline/redis';
import { useHookline } from './harness';

// An erasure runs in the monitor, step by step, its progress in Redis. kill -9 of that monitor mid-way (here
// while it waits for deliveries on the wire to settle) and a restart: the new process takes the erasure over
// once the lease of the dead one lapses, and finishes it.
describe('an erasure survives kill -9 of its monitor', () => {
  const h = useHookline();
  const NUMBER = '+15550100777';

  function spawnMonitor(): SpawnedProcess {
    const monitor = spawnEntry('apps/hookline/src/monitor-main.ts', {
      REDIS_URL: TEST_REDIS_URL,
      HOOKLINE_QUEUE_PREFIX: h.ctx.prefix,
      HOOKLINE_SECRET_KEY: h.secretKeyHex,
      DATABASE_URL: TEST_DATABASE_URL,
      HOOKLINE_DATABASE_SCHEMA: h.pg.schema,
      HOOKLINE_METRICS_PORT: '0',
      // The second pass waits at least FANOUT_FENCED_AFTER_MS (55 s; this deadline and 10 s more when longer):
      // long enough to be killed in.
      HOOKLINE_DELIVERY_TIMEOUT_MS: '1000',
    });
    h.ctx.onCleanup(async () => {
      monitor.kill('SIGKILL');
      await monitor.exited;
    });
    return monitor;
  }

  it('finishes after a restart: records emptied, the held event removed, nothing of the number left', async () => {
    const account = await h.account();
    const hook = await h.hook(account.id, { url: 'http://127.0.0.1:9/h' });
    const at = Date.now() - 60_000;
    const record = (i: number, from: string): AttemptRecord => ({
      attempt_id: newId('att', at + i),
      trigger: 'auto',
      account_id: account.id,
      hook_id: hook.id,
      event_id: newId('evt', at + i),
      event_type: 'call_created',
      call_id: `c${i}`,
      outcome: 'delivered',
      status_code: 200,
      duration_ms: 5,
      attempted_at: new Date(at + i).toISOString(),
      event_fields: { EventType: 'call_created', call_id: `c${i}`, from, to: '+4420' },
    });
    await new HistoryOutbox(h.ctx.redis, h.keys).append(
      hook.id,
      Array.from({ length: 6 }, (_, i) => record(i, i % 2 === 0 ? NUMBER : '+1999')),
    );
    // A held event of the number: the hook is suspended (its queue paused) and nothing delivers it.
    await h.hookQueues.pause(hook.id);
    await h.publish(account.id, { call_id: 'held', from: NUMBER });

    const first = spawnMonitor();
    await waitUntil(
      async () => (await h.ctx.redis.llen(h.keys.hookHistoryOutbox(hook.id))) === 0,
      'the first monitor to write the records to the database',
      30_000,
    );
    const { id } = await h.store.erasures.request(account.id, { kind: 'number', value: NUMBER }, 'operator');
    const key = h.keys.erasure(account.id, id);
    await waitUntil(
      async () => Number(await h.ctx.redis.hget(key, 'step')) >= 5,
      'the first pass to be done',
      30_000,
    );
    first.kill('SIGKILL');
    await first.exited;
    expect(await h.ctx.redis.hget(key, 'state')).toBe('running');

    spawnMonitor();
    const done = await waitUntil(
      async () => {
        const view = await h.store.erasures.get(account.id, id);
        return view?.state === 'done' ? view : undefined;
      },
      'the restarted monitor to finish the erasure',
      90_000,
    );
    expect(done.counts).toMatchObject({ history: 3, queued: 1 });
    const rows = await h.history.client.query<{ row: string }>('SELECT t::text AS row FROM attempts t');
    expect(rows).toHaveLength(7); // the 6 records and the held event's `erased`
    expect(rows.map((r) => r.row).join('\n')).not.toContain(NUMBER);
    expect(await h.hookQueues.waitingCount(hook.id)).toBe(0);
    const log = await h.deliveries(hook.id);
    expect(log.filter((r) => r.outcome === 'erased')).toHaveLength(1);
    expect(log.filter((r) => r.erased_at && r.outcome === 'delivered')).toHaveLength(3);
  }, 150_000);
});
