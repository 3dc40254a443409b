import { randomBytes } from 'node:crypto';
import IORedis, { type Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';
import { startMonitor, type RunningMonitor } from '@hookline/monitor';
import { createRedis, type HookQueues } from '@hookline/redis';
import { MONITOR_GROUP, type DeliverJobData, type Producer } from '@hookline/queue';
import type { Store } from '@hookline/store';
import type { SuspensionStore } from '@hookline/suspension';
import { openHistory, type HistoryStore } from '@hookline/history';
import { createLogger, createMetrics } from '@hookline/telemetry';
import {
  startRedisCluster,
  uniquePrefix,
  usePostgres,
  type RedisClusterFixture,
  type SpawnedProcess,
} from '@hookline/testing';
import { startWorker, type RunningWorker } from '@hookline/worker';
import { hooklineParts, SAMPLE, spawnTestWorker, WORKER_CONFIG } from './harness';

/**
 * hookline's real parts (store, producer, workers in this process and as separate processes) on a Redis
 * Cluster of three masters started for the test file, each requiring a password (given to hookline the way
 * production does, in REDIS_URL). Each test gets its own key prefix; everything a test starts is stopped
 * after it, the cluster after the file.
 */
export function useClusterHookline() {
  let cluster: RedisClusterFixture;
  const closers: (() => Promise<unknown> | unknown)[] = [];
  const secretKey = randomBytes(32);
  const pg = usePostgres('cluster');
  const h = {
    redis: undefined as unknown as Redis,
    keys: undefined as unknown as RedisKeys,
    store: undefined as unknown as Store & SuspensionStore,
    history: undefined as unknown as HistoryStore,
    producer: undefined as unknown as Producer,
    hookQueues: undefined as unknown as HookQueues,
    get nodes(): RedisClusterFixture['nodes'] {
      return cluster.nodes;
    },
    /** The settings hookline takes to reach the cluster. */
    get target(): { REDIS_URL: string; REDIS_CLUSTER_NODES: RedisClusterFixture['nodes'] } {
      return { REDIS_URL: cluster.redisUrl, REDIS_CLUSTER_NODES: cluster.nodes };
    },
    onCleanup(fn: () => Promise<unknown> | unknown): void {
      closers.push(fn);
    },

    startWorker(): RunningWorker {
      const worker = startWorker({
        config: WORKER_CONFIG,
        redis: h.redis,
        keys: h.keys,
        store: h.store,
        metrics: createMetrics(),
        logger: createLogger('silent', 'cluster-worker'),
      });
      h.onCleanup(() => worker.close());
      return worker;
    },

    /** The production worker entry point, pointed at the cluster by REDIS_CLUSTER_NODES. */
    spawnWorker(): SpawnedProcess {
      return spawnTestWorker(
        {
          REDIS_CLUSTER_NODES: cluster.seeds,
          REDIS_URL: cluster.redisUrl,
          HOOKLINE_QUEUE_PREFIX: h.keys.prefix,
          HOOKLINE_SECRET_KEY: secretKey.toString('hex'),
          LOG_LEVEL: 'info',
        },
        h.onCleanup,
      );
    },

    /** The real monitor; it completes interrupted fan-outs after `inboxGraceMs`. */
    startMonitor(inboxGraceMs = 10_000): RunningMonitor {
      const monitor = startMonitor({
        redis: h.redis,
        keys: h.keys,
        store: h.store,
        history: h.history,
        logger: createLogger('silent', 'cluster-monitor'),
        config: { HOOKLINE_SUSPEND_AFTER_FAILURES: 10, HOOKLINE_SUSPEND_AFTER_MS: 600_000 },
        inboxGraceMs,
        tickMs: 50,
        blockMs: 100,
      });
      h.onCleanup(() => monitor.close());
      return monitor;
    },

    /** True once the monitors have read and acknowledged every outcome in the stream. */
    async outcomesConsumed(): Promise<boolean> {
      const last = await h.redis.xrevrange(h.keys.outcomes(), '+', '-', 'COUNT', 1);
      const groups = (await h.redis.xinfo('GROUPS', h.keys.outcomes())) as unknown[][];
      const group = groups
        .map((fields) => Object.fromEntries(pairs(fields)))
        .find((g) => g.name === MONITOR_GROUP);
      return group?.pending === 0 && group['last-delivered-id'] === last[0]?.[0];
    },

    async hook(accountId: string, url: string) {
      return h.store.hooks.create(accountId, { url, format: 'json', auth: { scheme: 'none' } }, 'operator');
    },

    publish(accountId: string, callId: string, id?: string) {
      return h.producer.publish(accountId, {
        type: 'call_created',
        ...(id ? { id } : {}),
        data: { ...SAMPLE, call_id: callId },
      });
    },

    /** The call ids in a hook's queue (waiting, active or finished), oldest first. */
    async queued(hookId: string): Promise<string[]> {
      const queue = h.hookQueues.open(hookId);
      try {
        const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'failed'], 0, -1, true);
        return jobs.map((job) => String((job.data as DeliverJobData).event.fields.call_id));
      } finally {
        await queue.close();
      }
    },

    /**
     * The master that holds `key`, asked of the cluster (CLUSTER KEYSLOT, CLUSTER SLOTS) and confirmed on that
     * master itself over a plain connection: the key exists there.
     */
    async masterHolding(key: string): Promise<string> {
      const slot = Number(await h.redis.call('CLUSTER', 'KEYSLOT', key));
      const ranges = (await h.redis.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const [, , [host, port]] = ranges.find(([from, to]) => slot >= from && slot <= to)!;
      const direct = new IORedis(port, host, { maxRetriesPerRequest: 1, password: cluster.password });
      try {
        if ((await direct.exists(key)) !== 1) throw new Error(`${key} is not on ${host}:${port}`);
      } finally {
        direct.disconnect();
      }
      return `${host}:${port}`;
    },
  };

  beforeAll(async () => {
    cluster = await startRedisCluster({ password: randomBytes(12).toString('hex') });
    h.redis = createRedis(h.target);
    h.redis.on('error', () => undefined);
  }, 60_000);

  afterAll(async () => {
    h.redis?.disconnect();
    await cluster?.stop();
  });

  beforeEach(async () => {
    h.history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
    h.onCleanup(() => h.history.close());
    ({
      keys: h.keys,
      hookQueues: h.hookQueues,
      store: h.store,
      producer: h.producer,
    } = hooklineParts(h.redis, uniquePrefix('cluster'), secretKey, h.history.client));
    h.onCleanup(() => h.producer.close());
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  return h;
}

function pairs(fields: readonly unknown[]): [unknown, unknown][] {
  const out: [unknown, unknown][] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) out.push([fields[i], fields[i + 1]]);
  return out;
}
