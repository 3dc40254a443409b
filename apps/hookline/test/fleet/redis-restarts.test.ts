import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedis, startEmbeddedRedis } from '@hookline/redis';
import { startReceiver, waitUntil } from '@hookline/testing';
import { hooklineParts, SAMPLE, spawnTestWorker } from './harness';
import { openTestHistory } from '../support/test-history';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Redis restarted twice while busy and quiet hooks get events (AOF on, so accepted events survive): every
// worker process reconnects and no hook stays stuck; then SIGTERM stops every worker within its bound.
describe('Redis restarted twice under load', () => {
  it('every event is delivered afterwards, and every worker still stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-restarts-'));
    const cleanups: (() => Promise<unknown>)[] = [];
    let server = await startEmbeddedRedis(dataDir);
    const port = server.port;
    const redis = createRedis(server.url);
    redis.on('error', () => undefined);
    const secretKey = randomBytes(32);
    const history = await openTestHistory((close) => cleanups.push(close), 'restarts');
    const { store, producer } = hooklineParts(redis, 'restarts', secretKey, history.client);
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200, delayMs: 5 }));
    try {
      const targets = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const account = await store.accounts.create({ name: `restart-${i}` });
          await store.hooks.create(account.id, { url: receiver.url(`/r/${i}`), format: 'json' }, 'operator');
          return { account, published: [] as string[] };
        }),
      );
      const env = {
        REDIS_URL: server.url,
        HOOKLINE_QUEUE_PREFIX: 'restarts',
        HOOKLINE_SECRET_KEY: secretKey.toString('hex'),
      };
      const workers = [0, 1].map(() => spawnTestWorker(env, (close) => cleanups.push(close)));
      await Promise.all(workers.map((w) => w.waitForOutput('worker started')));

      let n = 0;
      let publishing = true;
      const publisher = (async () => {
        while (publishing) {
          // Hooks 0-1 are busy (an event every round); the others quiet (one every tenth round).
          const round = n++;
          const due = targets.filter((_, i) => i < 2 || round % 10 === i - 2);
          for (const target of due) {
            const callId = `call-${round}`;
            try {
              await producer.publish(target.account.id, {
                type: 'call_created',
                data: { ...SAMPLE, call_id: callId },
              });
              target.published.push(callId);
            } catch {
              // Refused while Redis is down: the producer said so, nothing was accepted.
            }
          }
          await sleep(20);
        }
      })();
      for (const pause of [1500, 1500]) {
        await sleep(pause);
        await server.stop();
        await sleep(500);
        server = await startEmbeddedRedis(dataDir, port);
      }
      await sleep(1500);
      publishing = false;
      await publisher;

      for (const [i, target] of targets.entries())
        await waitUntil(
          () => receiver.requests.filter((r) => r.path === `/r/${i}`).length >= target.published.length,
          `every accepted event of hook ${i} delivered`,
          30_000,
        );
      for (const [i, target] of targets.entries()) {
        const received = receiver.requests
          .filter((r) => r.path === `/r/${i}`)
          .map((r) => (JSON.parse(r.body.toString('utf8')) as { call_id: string }).call_id);
        expect(received).toEqual(target.published);
      }
      expect(receiver.maxInFlightPerPath).toBe(1);

      for (const w of workers) w.kill('SIGTERM');
      for (const w of workers) expect(await w.exited).toEqual({ code: 0, signal: null });
    } finally {
      for (const close of cleanups) await close();
      await producer.close();
      redis.disconnect();
      await server.stop();
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
