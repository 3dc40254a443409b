import { appendFileSync, writeFileSync } from 'node:fs';
import type { Cluster, Redis } from 'ioredis';
import { hookQueueLayout, PAUSED_FIELD, redisKeys } from '@hookline/redis';

/**
 * FLEET_TRACE only: what Redis holds for each hook that still misses accepted events after the drain (lease,
 * ready set, with-work index, BullMQ lists, the active job's lock and the attempt key), to
 * /tmp/fleet-stuck.log, so a hook that stopped can be read from the state it was left in.
 */
export async function dumpStuckHooks(
  redis: Cluster | Redis,
  prefix: string,
  hookIds: readonly string[],
): Promise<void> {
  const keys = redisKeys(prefix);
  const file = '/tmp/fleet-stuck.log';
  writeFileSync(file, `${new Date().toISOString()} ${hookIds.length} hooks missing events\n`);
  for (const hookId of hookIds) {
    const layout = hookQueueLayout(keys, hookId);
    const active = await redis.lrange(layout.active, 0, -1);
    const locks = await Promise.all(
      active.map(async (id) => ({
        id,
        lock: await redis.get(layout.jobLock(id)),
        pttl: await redis.pttl(layout.jobLock(id)),
        job: await redis.hgetall(`${layout.jobPrefix}${id}`).then((h) => ({ ...h, data: undefined })),
      })),
    );
    const state = {
      hookId,
      lease: await redis.zscore(keys.hookLeases(), hookId),
      now: Date.now(),
      holder: await redis.hget(keys.hookLeaseHolders(), hookId),
      ready: await redis.zscore(keys.readyHooks(), hookId),
      signalledWhileLeased: await redis.sismember(keys.signalledWhileLeased(), hookId),
      withWork: await redis.zscore(keys.hooksWithWork(), hookId),
      waitLen: await redis.llen(layout.wait),
      waitTail: await redis.lrange(layout.wait, -3, -1),
      paused: await redis.hget(layout.meta, PAUSED_FIELD),
      active,
      locks,
      attempt: await redis.get(keys.hookAttempt(hookId)),
      outbox: await redis.llen(keys.hookHistoryOutbox(hookId)),
    };
    appendFileSync(file, `${JSON.stringify(state)}\n`);
  }
}
