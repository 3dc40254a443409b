import { hookQueueLayout } from '@hookline/redis';
import type { BenchHook } from './load/hookline-load';
import type { BenchWorld } from './setup';

export interface StrandedHooks {
  /** Hooks that still have events queued (waiting or active) after the drain gave up. */
  readonly withEvents: number;
  /** ...of which no worker holds a lease and none is signalled in the ready set: nothing will wake them. */
  readonly unclaimed: number;
  readonly examples: readonly string[];
}

/**
 * Explains events that never arrived: a hook with queued events, no lease and no ready signal is stranded
 * until its next event signals it again (a lost wake-up), which the scheduler is meant to rule out.
 */
export async function findStrandedHooks(
  world: BenchWorld,
  hooks: readonly BenchHook[],
): Promise<StrandedHooks> {
  const { keys, redis } = world;
  const pipeline = redis.pipeline();
  for (const h of hooks)
    pipeline
      .llen(hookQueueLayout(keys, h.hookId).wait)
      .llen(hookQueueLayout(keys, h.hookId).active)
      .zscore(keys.hookLeases(), h.hookId)
      .zscore(keys.readyHooks(), h.hookId);
  const replies = ((await pipeline.exec()) ?? []).map(([, value]) => value);
  let withEvents = 0;
  const unclaimed: string[] = [];
  hooks.forEach((h, i) => {
    const [wait, active, lease, ready] = replies.slice(i * 4, i * 4 + 4);
    if (Number(wait) + Number(active) === 0) return;
    withEvents += 1;
    if (lease === null && ready === null)
      unclaimed.push(`${h.hookId} (wait ${String(wait)}, active ${String(active)})`);
  });
  return { withEvents, unclaimed: unclaimed.length, examples: unclaimed.slice(0, 5) };
}
