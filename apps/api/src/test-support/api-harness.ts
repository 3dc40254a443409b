import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { loadConfig } from '@hookline/config';
import { redisKeys, type RedisKeys } from '@hookline/redis';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import { createFailFastRedis, HookQueues } from '@hookline/redis';
import { type DeliverJobData } from '@hookline/queue';
import { createLogger, createMetrics, type Metrics } from '@hookline/telemetry';
import { openHistory, type HistoryStore } from '@hookline/history';
import { TEST_DATABASE_URL, TEST_REDIS_URL, usePostgres, useRedis } from '@hookline/testing';
import { createApiDeps, type ProductionApiDeps } from './api-deps';
import { buildApp } from '../app';
import { httpCall, type Answer } from './http-call';

// Test harness for the API: the production wiring (createApiDeps: real store with a SecretBox, real HookQueues,
// the real Producer and HookControl) on a real Redis under a unique prefix, served on 127.0.0.1:0.

export const API_KEY = 'test-operator-key-0123456789abcdef';
export const SECRET_KEY = '5a'.repeat(32);

export const callCreated = (data: Record<string, unknown> = {}) => ({ ...SAMPLE_CALL_DATA, ...data });

export interface CallOptions {
  /** The operator key to send; null sends no Authorization header. Default: the right key. */
  readonly key?: string | null;
  readonly headers?: Record<string, string | string[]>;
  /** A raw payload, sent as is (for malformed JSON and size tests). */
  readonly raw?: string | Buffer;
}

/**
 * `eventCatalog`: the text of a catalogue file, given to the config as HOOKLINE_EVENT_CATALOG would;
 * `settings`: further settings, as the environment would give them.
 */
export function configFor(prefix: string, eventCatalog?: string, settings: Record<string, string> = {}) {
  return loadConfig(
    {
      HOOKLINE_API_KEY: API_KEY,
      HOOKLINE_SECRET_KEY: SECRET_KEY,
      HOOKLINE_QUEUE_PREFIX: prefix,
      // The harness opens the history itself, in the test's own schema.
      DATABASE_URL: TEST_DATABASE_URL,
      // Probes go to the tests' receivers on this machine.
      HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8',
      HOOKLINE_DELIVERY_TIMEOUT_MS: '3000',
      LOG_LEVEL: 'silent',
      ...(eventCatalog !== undefined ? { HOOKLINE_EVENT_CATALOG: 'catalog.json' } : {}),
      ...settings,
    },
    'api',
    () => eventCatalog ?? '',
  );
}

async function connected(redis: Redis): Promise<Redis> {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
}

export function useApi(
  options: { readonly eventCatalog?: string; readonly settings?: Record<string, string> } = {},
) {
  const ctx = useRedis('api');
  const pg = usePostgres('api');
  const h = {
    history: undefined as unknown as HistoryStore,
    ctx,
    app: undefined as unknown as FastifyInstance,
    port: 0,
    deps: undefined as unknown as ProductionApiDeps,
    keys: undefined as unknown as RedisKeys,
    queues: undefined as unknown as HookQueues,
    metrics: undefined as unknown as Metrics,

    /** A request with the operator key (unless told otherwise) and a JSON body. */
    call(method: string, url: string, body?: unknown, options: CallOptions = {}): Promise<Answer> {
      const key = options.key === undefined ? API_KEY : options.key;
      const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
      return httpCall(h.port, {
        method,
        path: url,
        headers: {
          ...(key !== null ? { authorization: `Bearer ${key}` } : {}),
          ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        ...(payload !== undefined ? { body: payload } : {}),
      });
    },

    async createAccount(name = 'Acme'): Promise<string> {
      const res = await h.call('POST', '/v1/accounts', { name });
      if (res.statusCode !== 201) throw new Error(`account not created: ${res.statusCode} ${res.body}`);
      return (res.json() as { id: string }).id;
    },

    async createHook(accountId: string, body: Record<string, unknown> = {}): Promise<{ id: string }> {
      const res = await h.call('POST', `/v1/accounts/${accountId}/hooks`, {
        url: 'https://hooks.example.com/webhook',
        format: 'json',
        ...body,
      });
      if (res.statusCode !== 201) throw new Error(`hook not created: ${res.statusCode} ${res.body}`);
      return res.json() as { id: string };
    },

    /** The deliver jobs in a hook's BullMQ queue, oldest first, read with BullMQ itself. */
    async jobsOf(hookId: string): Promise<DeliverJobData[]> {
      const queue = h.queues.open(hookId);
      try {
        const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active'], 0, -1, true);
        return jobs.map((job) => job.data as DeliverJobData);
      } finally {
        await queue.close();
      }
    },

    /** Every key under the test's prefix: "nothing was created" means this did not grow. */
    async keyCount(): Promise<number> {
      let cursor = '0';
      let count = 0;
      do {
        const [next, found] = await ctx.redis.scan(cursor, 'MATCH', `${ctx.prefix}:*`, 'COUNT', 1000);
        cursor = next;
        count += found.length;
      } while (cursor !== '0');
      return count;
    },
  };

  beforeEach(async () => {
    const config = configFor(ctx.prefix, options.eventCatalog, options.settings);
    const redis = await connected(createFailFastRedis(TEST_REDIS_URL));
    ctx.onCleanup(() => redis.disconnect());
    h.keys = redisKeys(ctx.prefix);
    h.queues = new HookQueues(ctx.redis, h.keys);
    h.metrics = createMetrics();
    h.history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
    ctx.onCleanup(() => h.history.close());
    h.deps = createApiDeps(config, redis, createLogger('silent', 'api-test'), h.metrics, h.history.client);
    ctx.onCleanup(() => h.deps.producer.close());
    ctx.onCleanup(() => h.deps.closeProbes());
    h.app = buildApp(h.deps);
    ctx.closeLater(h.app);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    h.port = (h.app.server.address() as AddressInfo).port;
  });

  return h;
}

export type ApiHarness = ReturnType<typeof useApi>;
export type { Answer };

/** Fails when `secret` appears anywhere in the answer: body or headers. */
export function expectAbsent(res: Answer, secret: string): void {
  expect(res.body).not.toContain(secret);
  expect(JSON.stringify(res.headers)).not.toContain(secret);
}
