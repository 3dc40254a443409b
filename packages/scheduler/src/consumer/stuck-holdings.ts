import type { Logger } from '@hookline/telemetry';
import type { Holding } from './holding';

/**
 * A hook must never stop for good. A holding whose step has lasted longer than any step can (a delivery is
 * bounded by its deadline, the mark's and the outcome's retries, and a failover's retry budget: well under
 * two locks) waits on something that will not end, such as a command lost in a Redis failover. It would keep
 * its lease and its job's lock alive through the consumer's renewals, and the hook would get nothing more:
 * new signals only mark a leased hook, and the watchdog leaves leased hooks alone.
 *
 * Dropped from `held`, it is renewed no more: its lease expires and is reclaimed, its lock runs out, and the
 * next holder (this process or another) takes the job over: `unknown` if it was marked, never sent twice, and
 * a request only starts with more lock left than its deadline, so one cannot outlive the lock. If the step
 * ever ends, the holding is lost and every write of it is fenced by the new holder's token.
 *
 * Returns how many holdings were dropped.
 */
export function dropStuckHoldings(held: Map<string, Holding>, stuckAfterMs: number, logger: Logger): number {
  let dropped = 0;
  for (const holding of [...held.values()]) {
    if (holding.stepForMs() <= stuckAfterMs) continue;
    logger.error(
      // In a delivery (its job named) or in a take or finish.
      { hookId: holding.hookId, stepMs: Math.round(holding.stepForMs()), delivering: holding.current?.id },
      'a delivery step never ended; the hook is left to another holding',
    );
    holding.lose('a step of its delivery never ended');
    held.delete(holding.hookId);
    dropped += 1;
  }
  return dropped;
}
