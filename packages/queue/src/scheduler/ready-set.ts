import type { Redis } from 'ioredis';
import { LuaScript, type RedisKeys } from '@hookline/core';

// The ready set is how a hook with work finds a worker process without every process watching every queue.
// Producers add the hook id (ZADD NX, so a busy hook is one entry however many events arrive); a process
// claims a batch, takes a lease on each, attaches a BullMQ Worker, and gives the lease back when the queue
// has been idle for a while. Leases expire when a process dies, and any process puts expired hooks back
// into the ready set, so a crash never strands a queue.

// Claims up to ARGV[3] hooks: first the ids the caller already popped (ARGV[4..]), then more from the set.
// A hook whose lease is still live is skipped: its holder re-checks the queue before letting go, so the
// signal is not lost.
const CLAIM = new LuaScript(`
local ready, leases = KEYS[1], KEYS[2]
local now, expiry, want = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local claimed = {}
local function take(id)
  local held = tonumber(redis.call('ZSCORE', leases, id))
  if held and held > now then return end
  redis.call('ZADD', leases, expiry, id)
  claimed[#claimed + 1] = id
end
for i = 4, #ARGV do take(ARGV[i]) end
local room = want - (#ARGV - 3)
if room > 0 then
  local popped = redis.call('ZPOPMIN', ready, room)
  for i = 1, #popped, 2 do take(popped[i]) end
end
return claimed
`);

const SIGNAL = new LuaScript(`
local now = tonumber(ARGV[1])
for i = 2, #ARGV do
  local held = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[i]))
  if not held or held <= now then redis.call('ZADD', KEYS[1], 'NX', now, ARGV[i]) end
end
`);

// Moves hooks whose lease expired (their process died) back to the ready set.
const RECLAIM = new LuaScript(`
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(expired) do
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZADD', KEYS[1], 'NX', ARGV[1], id)
end
return expired
`);

export class ReadySet {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Tells the fleet that a hook has (or may have) events to deliver. A hook whose lease is live is skipped:
   * its holder is attached and takes the events itself, and re-checks the queue after letting go (so the
   * caller must have added its jobs first). Idempotent, one round trip.
   */
  async signal(hookIds: readonly string[]): Promise<void> {
    if (hookIds.length === 0) return;
    await SIGNAL.run(this.redis, [this.keys.readyHooks(), this.keys.hookLeases()], [this.now(), ...hookIds]);
  }

  /** Blocks up to `timeoutSeconds` for one signalled hook; returns its id (already removed from the set). */
  async waitForOne(blocking: Redis, timeoutSeconds: number): Promise<string | undefined> {
    const popped = await blocking.bzpopmin(this.keys.readyHooks(), timeoutSeconds);
    return popped ? popped[1] : undefined;
  }

  async claim(alreadyPopped: readonly string[], want: number, leaseMs: number): Promise<string[]> {
    const now = this.now();
    return (await CLAIM.run(
      this.redis,
      [this.keys.readyHooks(), this.keys.hookLeases()],
      [now, now + leaseMs, want, ...alreadyPopped],
    )) as string[];
  }

  /** How many hooks are waiting for a process to attach. */
  async size(): Promise<number> {
    return this.redis.zcard(this.keys.readyHooks());
  }

  async renew(hookIds: readonly string[], leaseMs: number): Promise<void> {
    if (hookIds.length === 0) return;
    const expiry = this.now() + leaseMs;
    await this.redis.zadd(this.keys.hookLeases(), 'XX', ...hookIds.flatMap((id) => [expiry, id]));
  }

  async release(hookId: string): Promise<void> {
    await this.redis.zrem(this.keys.hookLeases(), hookId);
  }

  async reclaimExpired(limit = 1000): Promise<string[]> {
    return (await RECLAIM.run(
      this.redis,
      [this.keys.readyHooks(), this.keys.hookLeases()],
      [this.now(), limit],
    )) as string[];
  }
}
