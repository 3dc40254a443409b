import { randomBytes } from 'node:crypto';
import { createRedis } from '@hookline/redis';
import { startReceiver, startRedisServer, waitUntil } from '@hookline/testing';
import { hooklineParts, SAMPLE, spawnTestWorker } from './harness';
import { openTestHistory } from '../support/test-history';

// A worker stopped while its Redis is frozen (connected, answering nothing): the attempt in flight gets its
// answer, but its outcome cannot be written. The worker still stops within its bound, and says so, exit 1:
// the next worker records that attempt `unknown`, though the endpoint answered.
describe('a worker stopped while its Redis is frozen', () => {
  it('exits 1 within its bound, naming the hook whose outcome was not recorded', async () => {
    const cleanups: (() => Promise<unknown>)[] = [];
    const server = await startRedisServer();
    const redis = createRedis(`redis://127.0.0.1:${server.port}`);
    redis.on('error', () => undefined);
    const secretKey = randomBytes(32);
    const history = await openTestHistory((close) => cleanups.push(close), 'stopfrozen');
    const { store, producer } = hooklineParts(redis, 'stopfrozen', secretKey, history.client);
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 3000 }));
    try {
      const account = await store.accounts.create({ name: 'stop-frozen' });
      const hook = await store.hooks.create(
        account.id,
        { url: receiver.url('/in'), format: 'json' },
        'operator',
      );
      const worker = spawnTestWorker(
        {
          REDIS_URL: `redis://127.0.0.1:${server.port}`,
          HOOKLINE_QUEUE_PREFIX: 'stopfrozen',
          HOOKLINE_SECRET_KEY: secretKey.toString('hex'),
          HOOKLINE_DELIVERY_TIMEOUT_MS: '5000',
        },
        (close) => cleanups.push(close),
      );
      await worker.waitForOutput('worker started');
      await producer.publish(account.id, { type: 'call_created', data: SAMPLE });
      await waitUntil(async () => receiver.requests.length === 1 || undefined, 'the request in flight');
      server.freeze();
      worker.kill('SIGTERM');
      expect(await worker.exited).toEqual({ code: 1, signal: null });
      expect(worker.output()).toContain('stopped before the work of 1 hook(s) finished');
      expect(worker.output()).toContain(hook.id);
    } finally {
      server.thaw();
      for (const close of cleanups) await close();
      await producer.close();
      redis.disconnect();
      await server.kill();
      await receiver.close();
    }
  }, 60_000);
});
