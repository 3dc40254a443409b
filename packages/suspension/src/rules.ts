import { isDropped, type RecordedOutcome } from '@hookline/core';
import type { StreakStep } from '@hookline/store';

// What a hook's streak of non-delivered outcomes is made of, shared by the two places that move it: the
// worker's finish script applies delivered outcomes on the spot (packages/store attempt-ledger.ts), the suspension monitor
// applies failures it reads from the outcome stream (streaks.ts). The streak is right whatever
// order the two arrive in: failures are a set scored by attempt time, and a delivered outcome removes every
// failure attempted before it and records its time, so a failure older than the latest success is ignored
// wherever it turns up.

export type { StreakStep };

/** Only attempts move a streak: held events dropped by the cap or by the customer are not failures. */
export function streakStep(outcome: RecordedOutcome): StreakStep | undefined {
  if (outcome === 'delivered') return 'delivered';
  if (isDropped(outcome)) return undefined;
  return 'failure';
}
