import type { Redis } from 'ioredis';
import type { SqlClient } from '@hookline/history';
import { keysMatching } from '@hookline/testing';

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
