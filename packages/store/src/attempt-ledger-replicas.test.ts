import { requireReplicaAcks } from '@hookline/redis';
import { useRedisPair } from '@hookline/testing';
import type { AttemptRecord } from '@hookline/core';
import { holdJob } from './test-support/hold-job';
import { storeForTest } from './test-support/store-for-test';

// HOOKLINE_REDIS_REPLICA_ACKS=1 on a real primary and replica: the attempt mark must be on the replica before
// the request may leave. A replica that does not acknowledge (frozen with SIGSTOP here) means: send nothing,
// take the mark back, so that the next taking sends the event instead of recording `unknown`.
describe('the attempt ledger with replica acknowledgements required', () => {
  const acked = useRedisPair((redis) => requireReplicaAcks(redis, 1));

  it('sends only once the replica has the mark; withdraws it when the replica does not answer', async () => {
    const { redis } = acked;
    const { store, keys } = storeForTest({ prefix: 'acks', redis });
    const account = await store.accounts.create({ name: 'Acme' });
    const hook = await store.hooks.create(account.id, { url: 'https://example.com/in', format: 'json' }, 't');
    const { replica } = acked;
    const attemptKey = keys.hookAttempt(hook.id);

    const first = await holdJob(redis, keys, hook.id, { jobId: 'evt_1', token: 'taking-1' });
    replica.freeze();
    try {
      expect(await store.attempts.begin(hook.id, 'evt_1', first)).toEqual({ kind: 'unacknowledged' });
      expect(await redis.get(attemptKey)).toBeNull();
    } finally {
      replica.thaw();
    }

    const second = await holdJob(redis, keys, hook.id, { jobId: 'evt_1', token: 'taking-2' });
    expect(await store.attempts.begin(hook.id, 'evt_1', second)).toMatchObject({ kind: 'send' });
    // Acknowledged means on the replica already, not eventually.
    expect(await replica.call((r) => r.get(attemptKey))).toBe('evt_1 taking-2');

    const record: AttemptRecord = {
      attempt_id: 'att_1',
      trigger: 'auto',
      account_id: account.id,
      hook_id: hook.id,
      event_id: 'evt_1',
      event_type: 'call_created',
      outcome: 'delivered',
      duration_ms: 3,
      attempted_at: new Date().toISOString(),
    };
    expect(await store.attempts.finish(hook.id, record, second)).toBe('recorded');
    expect(await replica.call((r) => r.get(attemptKey))).toBe('evt_1:done');
    expect(await replica.call((r) => r.llen(keys.hookHistoryOutbox(hook.id)))).toBe(1);

    // An outcome the replica did not acknowledge is an error the recorder tries again; the repeat is answered
    // "recorded" without a second history record.
    const third = await holdJob(redis, keys, hook.id, { jobId: 'evt_2', token: 'taking-3' });
    expect(await store.attempts.begin(hook.id, 'evt_2', third)).toMatchObject({ kind: 'send' });
    const second_record = { ...record, attempt_id: 'att_2', event_id: 'evt_2' };
    replica.freeze();
    try {
      await expect(store.attempts.finish(hook.id, second_record, third)).rejects.toThrow(
        /1 replica acknowledgement required \(HOOKLINE_REDIS_REPLICA_ACKS\), 0 received/,
      );
    } finally {
      replica.thaw();
    }
    expect(await store.attempts.finish(hook.id, second_record, third)).toBe('recorded');
    expect(await replica.call((r) => r.llen(keys.hookHistoryOutbox(hook.id)))).toBe(2);
  }, 30000);
});
