import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { useRedis } from '@hookline/testing';
import { hookQueueLayout, PAUSED_FIELD } from './layout';
import { EVENTS_MAX_LEN } from './hook-queues';
import { redisKeys } from '../keys';

const ROOT = join(__dirname, '../../../..');
const FOLDER = 'packages/redis/src/bullmq/';
// BullMQ's key suffixes as they end a key built in a string (`…}:wait`, `':meta'`), its deduplication keys
// (`…}:de:…`), and the names of the paused field and the marker and wait keys as string literals.
const INTERNALS =
  /[}'"`]:(meta|marker|wait|active|paused|events|id|prioritized|delayed|lock)['"`]|[}'"`:]de:|['"](paused|marker|wait)['"]/;

describe("BullMQ's internal layout", () => {
  const ctx = useRedis('bullmq-layout');

  it('is what BullMQ itself writes, so an upgrade that moves a key fails here', async () => {
    const keys = redisKeys(ctx.prefix);
    const layout = hookQueueLayout(keys, 'hk_layout');
    const queue = new Queue(keys.hookQueueName('hk_layout'), {
      connection: ctx.redis,
      prefix: keys.prefix,
      streams: { events: { maxLen: EVENTS_MAX_LEN } },
    });
    ctx.onCleanup(() => queue.close());
    await queue.setGlobalConcurrency(1);
    const job = await queue.add('deliver.v1', { n: 1 });
    expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual([job.id]);
    expect(await ctx.redis.hget(`${layout.jobPrefix}${job.id}`, 'data')).toBe('{"n":1}');
    expect(await ctx.redis.get(layout.jobCounter)).toBe('1');
    const deduplicated = await queue.add(
      'deliver.v1',
      { n: 2 },
      { deduplication: { id: 'd1', ttl: 60_000 } },
    );
    expect(await ctx.redis.get(layout.deduplication('d1'))).toBe(deduplicated.id);
    expect(await ctx.redis.xlen(layout.events)).toBeGreaterThan(0);
    await queue.pause();
    expect(await ctx.redis.hget(layout.meta, PAUSED_FIELD)).not.toBeNull();
    await queue.resume();
    expect(await ctx.redis.hexists(layout.meta, PAUSED_FIELD)).toBe(0);
    expect(await ctx.redis.exists(layout.marker)).toBe(1);
  });

  it('is named nowhere outside its folder (sources, tests and Lua scripts alike)', () => {
    const files = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.lua'],
      { cwd: ROOT, encoding: 'utf8' },
    )
      .split('\n')
      .filter((f) => f && !f.startsWith(FOLDER));
    const offenders = files.filter((f) => {
      try {
        return INTERNALS.test(readFileSync(join(ROOT, f), 'utf8'));
      } catch {
        return false; // deleted in the work tree
      }
    });
    expect(offenders).toEqual([]);
  });
});
