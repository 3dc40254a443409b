import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { loadConfig } from '@hookline/config';
import { openHistory } from '@hookline/history';
import { createRequestRedis } from '@hookline/redis';
import { createLogger, createMetrics } from '@hookline/telemetry';
import {
  TEST_DATABASE_URL,
  waitUntil,
  type RedisClusterFixture,
  type RedisSentinelFixture,
  type RedisServerProcess,
  type usePostgres,
  type useRedis,
} from '@hookline/testing';
import { buildApp } from '../app';
import { createApiDeps, type ProductionApiDeps } from './api-deps';
import { API_KEY, SECRET_KEY } from './api-harness';
import { httpCall, type Answer } from './http-call';

// The API on a Redis of a test's own making (a Cluster, Sentinel, a replicated primary, or a dead address),
// where `useApi` always serves it on the shared test Redis: the production wiring, served on 127.0.0.1:0 and
// closed with the test.

type RedisContext = Pick<ReturnType<typeof useRedis>, 'prefix' | 'onCleanup' | 'closeLater'>;
type PostgresContext = ReturnType<typeof usePostgres>;

/** A request with the operator key and a JSON body. */
export type OperatorCall = (method: string, path: string, body?: unknown) => Promise<Answer>;

/**
 * Serves `deps` on 127.0.0.1:0 (the app, the producer and the probes closed with the test): a call with the
 * operator key, and the port for a test that writes raw bytes.
 */
export async function serveApi(
  ctx: RedisContext,
  deps: ProductionApiDeps,
): Promise<OperatorCall & { readonly port: number }> {
  ctx.onCleanup(() => deps.producer.close());
  ctx.onCleanup(() => deps.closeProbes());
  const app = buildApp(deps);
  ctx.closeLater(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const call: OperatorCall = (method, path, body) =>
    httpCall(port, {
      method,
      path,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  return Object.assign(call, { port });
}

/** A Redis the API can be pointed at: a Cluster, a Sentinel set-up, or one server by its address. */
export type FailoverRedis = RedisClusterFixture | RedisSentinelFixture | RedisServerProcess;

/** The settings that point hookline at `on`. */
function redisSettingsOf(on: FailoverRedis): Record<string, string> {
  if ('seeds' in on) return { REDIS_CLUSTER_NODES: on.seeds };
  if ('sentinelList' in on)
    return { REDIS_URL: on.redisUrl, REDIS_SENTINELS: on.sentinelList, REDIS_SENTINEL_MASTER: on.masterName };
  return { REDIS_URL: `redis://${on.host}:${on.port}` };
}

/**
 * The API on `on` (with `settings` beside, such as HOOKLINE_REDIS_REPLICA_ACKS), once its client is ready;
 * the client is returned for the test to read what the API wrote.
 */
export async function failoverApi(
  ctx: RedisContext,
  pg: PostgresContext,
  on: FailoverRedis,
  settings: Record<string, string> = {},
): Promise<{ redis: Redis; call: OperatorCall }> {
  const config = loadConfig(
    {
      HOOKLINE_API_KEY: API_KEY,
      HOOKLINE_SECRET_KEY: SECRET_KEY,
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      DATABASE_URL: TEST_DATABASE_URL,
      ...redisSettingsOf(on),
      ...settings,
      LOG_LEVEL: 'silent',
    },
    'api',
  );
  // As the HTTP tier makes it (http-main.ts): WAITs and a Cluster's retries run within its command deadline.
  const redis = createRequestRedis(config);
  // A failover's connection errors are what the test provokes; the answers say what the API made of them.
  redis.on('error', () => undefined);
  ctx.onCleanup(() => redis.disconnect());
  await waitUntil(async () => redis.status === 'ready', 'the API client ready', 10000);
  const history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
  ctx.onCleanup(() => history.close());
  const deps = createApiDeps(
    config,
    redis,
    createLogger('silent', 'api-test'),
    createMetrics(),
    history.client,
  );
  return { redis, call: await serveApi(ctx, deps) };
}

/** An account and a JSON hook of it, made through the API. */
export async function accountWithHook(call: OperatorCall): Promise<{ acct: string; hook: { id: string } }> {
  const acct = ((await call('POST', '/v1/accounts', { name: 'Acme' })).json() as { id: string }).id;
  const hook = (
    await call('POST', `/v1/accounts/${acct}/hooks`, {
      url: 'https://hooks.example.com/in',
      format: 'json',
    })
  ).json() as { id: string };
  return { acct, hook };
}

/** The error `promise` rejects with; fails the test when it resolves. */
export async function errorOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the command succeeded; an error was expected');
}
