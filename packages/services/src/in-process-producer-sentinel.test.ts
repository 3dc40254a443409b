import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SAMPLE_CALL_DATA, type PublishEventInput } from '@hookline/core';
import type { DeliverJobData } from '@hookline/queue';
import { HookQueues, redisKeys } from '@hookline/redis';
import { createStore, SecretBox } from '@hookline/store';
import { startRedisSentinel, waitUntil, type RedisSentinelFixture } from '@hookline/testing';
import { createProducer, type InProcessProducer } from './in-process-producer';

// A service publishing in-process behind Redis Sentinel, when the primary hangs (SIGSTOP, a paused VM) instead of
// dying: nothing closes the producer's socket to it, yet the sentinels promote the replica within seconds. The
// producer must publish to the new primary while the old one is still frozen, not only once it wakes.
const FROZEN_FOR_MS = 40_000;
const PREFIX = 'producer-sentinel';

const event = (call_id: string, id: string): PublishEventInput => ({
  type: 'call_created',
  id,
  data: { ...SAMPLE_CALL_DATA, call_id },
});

describe('createProducer behind Redis Sentinel, its primary frozen', () => {
  let sentinel: RedisSentinelFixture;
  beforeAll(async () => {
    sentinel = await startRedisSentinel({ replicas: 1, sentinels: 3, downAfterMs: 1000 });
  }, 60_000);
  afterAll(async () => {
    for (const server of sentinel?.servers ?? []) server.thaw();
    await sentinel?.stop();
  });

  it('publishes to the promoted replica before the old primary wakes, each event once', async () => {
    const secretKey = randomBytes(32).toString('hex');
    const keys = redisKeys(PREFIX);
    const setup = sentinel.connect();
    const store = createStore({
      redis: setup,
      keys,
      secretBox: SecretBox.fromKey(Buffer.from(secretKey, 'hex')),
      hookQueues: new HookQueues(setup, keys),
    });
    const account = await store.accounts.create({ name: 'Acme' });
    const hook = await store.hooks.create(
      account.id,
      { url: 'https://hooks.example.com/a', format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    const warned: string[] = [];
    const producer: InProcessProducer = createProducer(
      {
        REDIS_URL: sentinel.redisUrl,
        REDIS_SENTINELS: sentinel.sentinelList,
        REDIS_SENTINEL_MASTER: sentinel.masterName,
        HOOKLINE_QUEUE_PREFIX: PREFIX,
        HOOKLINE_SECRET_KEY: secretKey,
      },
      { log: { info: () => undefined, warn: (_, msg) => warned.push(msg) } },
    );
    const old = await sentinel.primary();
    try {
      await producer.publish(account.id, event('before', 'pbx-before'));
      // The replica holds the account, the hook and the first event before the primary stops answering.
      expect(await setup.wait(1, 5000)).toBe(1);

      old.freeze();
      const frozenAt = Date.now();
      await waitUntil(async () => (await sentinel.primary()) !== old, 'the replica promoted', 30_000);

      // A publish sent while the connection is still on the frozen primary times out; the same id again, as the
      // README says to, is accepted once the producer is on the new primary.
      let accepted = false;
      while (!accepted && Date.now() - frozenAt < FROZEN_FOR_MS - 5000) {
        accepted = await producer
          .publish(account.id, event('during', 'pbx-during'), { timeoutMs: 2000 })
          .then(
            () => true,
            (error: { code?: string }) => {
              expect(error.code).toBe('REDIS_UNAVAILABLE');
              return false;
            },
          );
        // A service retries after a pause, and its event loop meanwhile serves the client's reconnection.
        if (!accepted) await sleep(200);
      }
      expect(accepted).toBe(true);
      expect(Date.now() - frozenAt).toBeLessThan(FROZEN_FOR_MS);
      expect(warned).toContain('redis sentinels switched the primary');

      // Read on the new primary: the test's own client has no switch watcher and is still on the frozen one.
      const promoted = sentinel.connect();
      const queue = new HookQueues(promoted, keys).open(hook.id);
      const jobs = await queue.getWaiting();
      await queue.close();
      promoted.disconnect();
      expect(jobs.map((job) => (job.data as DeliverJobData).event.fields.call_id).sort()).toEqual([
        'before',
        'during',
      ]);
    } finally {
      old.thaw();
      await producer.close();
      setup.disconnect();
    }
  }, 120_000);
});
