import type { RecordedOutcome } from '@hookline/core';

// What a hook's streak of non-delivered outcomes is made of, shared by the two places that move it: the
// worker's finish script applies delivered outcomes on the spot (attempt-ledger.ts), the suspension monitor
// applies failures it reads from the outcome stream (packages/queue streak.ts). The streak is right whatever
// order the two arrive in: failures are a set scored by attempt time, and a delivered outcome removes every
// failure attempted before it and records its time, so a failure older than the latest success is ignored
// wherever it turns up.

export type StreakStep = 'failure' | 'delivered';

/** Only attempts move a streak: held events dropped by the cap or by the customer are not failures. */
export function streakStep(outcome: RecordedOutcome): StreakStep | undefined {
  if (outcome === 'delivered') return 'delivered';
  if (outcome === 'expired' || outcome === 'discarded') return undefined;
  return 'failure';
}

/** A streak nobody has touched for this long is forgotten: it bounds what a deleted hook leaves behind. */
export const STREAK_IDLE_TTL_MS = 30 * 24 * 3600 * 1000;

/**
 * Lua that applies a delivered outcome attempted at `at` (ms) to the streak hash `streak` and the failures
 * zset `failures` (names of Lua locals in the enclosing script).
 */
export const APPLY_DELIVERED_LUA = `
if at > tonumber(redis.call('HGET', streak, 'reset_at') or '-1') then
  redis.call('ZREMRANGEBYSCORE', failures, '-inf', at)
  redis.call('HSET', streak, 'reset_at', at, 'count', redis.call('ZCARD', failures))
end
`;
