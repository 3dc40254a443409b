import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { systemClock, type EventCatalog } from '@hookline/core';
import type { SqlClient } from '@hookline/history';
import { HistoryOutbox, HookQueues, redisKeys } from '@hookline/redis';
import { createStore, SecretBox, type RedisErasures } from '@hookline/store';
import { keysMatching, waitUntil, type useRedis } from '@hookline/testing';
import type { StepDeps } from '../src/erasures/erasure-steps';

/** Every value under the test's prefix, key names included, as text: what a scan for a string looks at. */
export async function redisText(redis: Redis, prefix: string): Promise<string> {
  const parts: string[] = [];
  for (const key of await keysMatching(redis, `${prefix}:*`)) {
    parts.push(key);
    const type = await redis.type(key);
    if (type === 'string') parts.push((await redis.get(key)) ?? '');
    else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
    else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
    else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
    else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
    else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    else parts.push(`(${type})`);
  }
  return parts.join('\n');
}

/** Every row of every table of the test's schema, as text (partitions are read through their parent). */
export async function databaseText(sql: SqlClient, schema: string): Promise<string> {
  const tables = await sql.query<{ table_name: string }>(
    `SELECT c.relname AS table_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    [schema],
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const rows = await sql.query<{ row: string }>(`SELECT t::text AS row FROM ${schema}.${table_name} t`);
    parts.push(`${table_name}: ${rows.map((r) => r.row).join('\n')}`);
  }
  return parts.join('\n');
}

/** A monitor that runs erasures (suspending nothing), its history writer quick to move records into the database. */
export const erasingMonitor = (erasures: RedisErasures) => ({
  config: { HOOKLINE_SUSPEND_AFTER_FAILURES: 100, HOOKLINE_SUSPEND_AFTER_MS: 60_000 },
  historyTimings: { idleMs: 50, holdMs: 2000 },
  erasures: { erasures, settleMs: 300, pollMs: 100 },
});

/** The erasure's view once it is done. */
export function erasureDone(erasures: RedisErasures, accountId: string, id: string) {
  return waitUntil(async () => {
    const view = await erasures.get(accountId, id);
    return view?.state === 'done' ? view : undefined;
  }, 'the erasure to be done');
}

/** A call of `from` to `to` (the caller named `from_cnam`), published under its own idempotency key. */
export const callEvent = (call_id: string, from: string, to: string, from_cnam = 'Someone Else') => ({
  type: 'call_created',
  id: `idem-${call_id}`,
  data: { call_id, direction: 'inbound', from, from_cnam, to, rate: '0.0' },
});

/**
 * The production store on the test's prefix and what an erasure's steps are given, for tests that run the
 * steps themselves. Without `sql`, a step that reads the database is not part of the test.
 */
export function erasureStepsFor(
  ctx: Pick<ReturnType<typeof useRedis>, 'prefix' | 'redis'>,
  options: { readonly catalog?: EventCatalog; readonly sql?: SqlClient } = {},
) {
  const keys = redisKeys(ctx.prefix);
  const hookQueues = new HookQueues(ctx.redis, keys);
  const store = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues,
    ...(options.catalog ? { catalog: options.catalog } : {}),
  });
  const outbox = new HistoryOutbox(ctx.redis, keys);
  const deps: StepDeps = {
    redis: ctx.redis,
    keys,
    erasures: store.erasures,
    outbox,
    hookQueues,
    sql: options.sql ?? (undefined as unknown as SqlClient),
    clock: systemClock,
  };
  return { keys, store, outbox, deps };
}
