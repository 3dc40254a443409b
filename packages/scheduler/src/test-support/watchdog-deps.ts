import type { Redis } from 'ioredis';
import type { Clock } from '@hookline/core';
import { HistoryOutbox, HookQueues, type RedisKeys } from '@hookline/redis';
import { ReadySet } from '../ready-set';
import type { WatchdogDeps } from '../watchdog/watchdog';
import { WorkerRoster } from '../worker-roster';

/**
 * A watchdog's dependencies on the test's Redis prefix, every one real; a test passes its clock, the
 * stuck-after time and what it listens to.
 */
export function testWatchdogDeps(
  redis: Redis,
  keys: RedisKeys,
  clock: Clock,
  given: Partial<WatchdogDeps> & Pick<WatchdogDeps, 'stuckAfterMs' | 'onReport'>,
): WatchdogDeps {
  return {
    redis,
    keys,
    // On the system clock, as the tests' own ready sets are: the leases they take are live for the watchdog.
    ready: new ReadySet(redis, keys),
    hookQueues: new HookQueues(redis, keys),
    outbox: new HistoryOutbox(redis, keys),
    roster: new WorkerRoster(redis, keys, clock),
    holder: 'monitor-a',
    tickMs: 1000,
    clock,
    ...given,
  };
}
