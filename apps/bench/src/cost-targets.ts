import { bullmqRatiosToMaximum } from './rate-rows';
import type { BenchResults, TargetCheck } from './results';
import { atMost, boundAtMost } from './target-check';

// Issue 28, cost follows work: what a delivery costs at a steady rate against the maximum, and the whole
// deployment through the HTTP API with the history on. (The idle fleet runs alone: `--only=idle`.)

type Figures = Omit<BenchResults, 'targets' | 'profile'>;

export function costTargets(r: Figures): TargetCheck[] {
  const rates = (r.fixedRates ?? []).flatMap((row) =>
    atMost(
      'CPU per delivery at a fixed rate <= 1.5 x at the maximum (same shape)',
      `${row.shape} at ${row.rate}/s: hookline + Redis µs / at the maximum`,
      row.ratioToMaximum,
      1.5,
    ),
  );
  // Not a check: BullMQ's own scripts on the same queues, fed at the same rates, against their maximum. A
  // ratio above the target there means the target asks hookline to spend less per turn than its floor does.
  const floor = bullmqRatiosToMaximum(r.bullmq.manyQueues).flatMap(({ rate, ratio }) =>
    boundAtMost(
      'CPU per delivery at a fixed rate <= 1.5 x at the maximum (same shape)',
      `bound: BullMQ alone at ${rate}/s: Redis + Workers µs per job / at its maximum`,
      ratio,
      1.5,
    ),
  );
  const w = r.wholeStack;
  if (!w) return [...rates, ...floor];
  const name = `whole stack, ${w.activeHooks} hooks at ${w.rate}/s via the API`;
  return [
    ...rates,
    ...floor,
    ...atMost(
      'whole stack <= 1.2 ms CPU per delivery, PostgreSQL included',
      `${name}: µs per delivery, every process but the bench`,
      w.stackMicrosPerDelivery,
      1200,
    ),
    ...atMost(
      'whole stack: p99 publish -> receipt <= 100 ms',
      `${name}: p99 ms`,
      w.phase.latency?.p99Ms,
      100,
    ),
  ];
}
