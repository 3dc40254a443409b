import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { redisKeys } from '@hookline/redis';
import { createRedis, HookQueues, startEmbeddedRedis } from '@hookline/redis';
import { Producer } from '@hookline/queue';
import { createStore, SecretBox } from '@hookline/store';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { startReceiver, waitUntil } from '@hookline/testing';
import { startWorker } from '@hookline/worker';
import { SAMPLE, WORKER_CONFIG } from './harness';

// A Redis of the test's own (AOF on), so it can be stopped and started: accepted events survive a restart,
// and a running worker reconnects and carries on.
describe('Redis restart', () => {
  it('keeps accepted events across a restart, and the worker carries on after it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-restart-'));
    const receiver = await startReceiver();
    let redisServer = await startEmbeddedRedis(dataDir);
    const port = redisServer.port;
    const redis = createRedis(redisServer.url);
    redis.on('error', () => undefined);
    const keys = redisKeys('restart');
    const hookQueues = new HookQueues(redis, keys);
    const store = createStore({ redis, keys, secretBox: SecretBox.fromKey(randomBytes(32)), hookQueues });
    const producer = new Producer({ redis, keys, erasureTags: store.erasureTags });
    const worker = startWorker({
      config: WORKER_CONFIG,
      redis,
      keys,
      store,
      metrics: createMetrics(),
      logger: createLogger('silent', 't'),
    });
    try {
      const account = await store.accounts.create({ name: 'Restart' });
      const hook = await store.hooks.create(account.id, { url: receiver.url(), format: 'json' }, 'operator');
      await producer.publish(account.id, { type: 'call_created', data: { ...SAMPLE, call_id: 'before' } });
      await receiver.waitFor(1);

      // Stop Redis with events accepted but not yet delivered: pause delivery first so they stay queued.
      await hookQueues.pause(hook.id);
      await producer.publish(account.id, { type: 'call_created', data: { ...SAMPLE, call_id: 'queued-1' } });
      await producer.publish(account.id, { type: 'call_created', data: { ...SAMPLE, call_id: 'queued-2' } });
      await redisServer.stop();
      redisServer = await startEmbeddedRedis(dataDir, port);

      expect(await hookQueues.waitingCount(hook.id)).toBe(2);
      await hookQueues.resume(hook.id);
      await producer.publish(account.id, { type: 'call_created', data: { ...SAMPLE, call_id: 'after' } });
      await receiver.waitFor(4, 30000);
      const ids = receiver.requests.map(
        (r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id,
      );
      expect(ids).toEqual(['before', 'queued-1', 'queued-2', 'after']);
      await waitUntil(
        async () => (await redis.llen(keys.hookHistoryOutbox(hook.id))) === 4,
        "four recorded outcomes in the hook's history outbox",
      );
    } finally {
      await worker.close();
      await producer.close();
      redis.disconnect();
      await redisServer.stop();
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60000);
});
