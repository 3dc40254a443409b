import { OpenLoop, viaProducer, type BenchHook } from './load/hookline-load';
import { hooklinePhase, type PhaseContext } from './phases';
import { cpuPerDelivery, type BullmqAlone, type PhaseResult, type RateRow } from './results';

export type { RateRow };

/** The fixed rates at which CPU per delivery is measured beside the maximum (issue: cost follows work). */
export const FIXED_RATES = [100, 500] as const;
/** The quiet shape warms up for one lap at most this long (a lap at 100/s over 20,000 hooks is 200 s). */
const QUIET_WARMUP_MAX_MS = 30_000;

/** What a delivery costs: core-milliseconds each, core-hours per million (hookline's processes and Redis). */
export interface CostLine {
  readonly coreMsPerDelivery: number;
  readonly coreHoursPerMillion: number;
}

export function hooklineMicros(p: PhaseResult): number | undefined {
  const all = cpuPerDelivery(p);
  const bench = p.usage?.cpuMicrosPerDelivery.bench;
  return all === undefined || bench === undefined ? undefined : all - bench;
}

/** BullMQ alone at one fixed rate: Redis + Workers µs per job, and that ÷ the same at its maximum. */
export interface BullmqRatio {
  readonly rate: number;
  readonly micros: number;
  readonly ratio: number;
}

/**
 * BullMQ alone at each fixed rate: Redis + the Workers' process per job ÷ the same at its maximum (the adds
 * come from the bench process, as hookline's publishes do, so neither side counts the bench).
 */
export function bullmqRatiosToMaximum(manyQueues: BullmqAlone['manyQueues']): BullmqRatio[] {
  const max = hooklineMicros(manyQueues);
  return (manyQueues.atRates ?? []).flatMap((p) => {
    const micros = hooklineMicros(p);
    return micros === undefined || !max
      ? []
      : [{ rate: p.rate, micros: Math.round(micros), ratio: Math.round((micros / max) * 100) / 100 }];
  });
}

export function costLine(micros: number): CostLine {
  return {
    coreMsPerDelivery: Math.round(micros) / 1000,
    // µs per delivery × 1,000,000 deliveries ÷ 3,600,000,000 µs per core-hour.
    coreHoursPerMillion: Math.round((micros / 3600) * 1000) / 1000,
  };
}

/** Each shape at each fixed rate, an open loop each, as the other "at N/s" rows are measured. */
export async function rateRows(
  ctx: PhaseContext,
  shapes: readonly { shape: 'busy' | 'quiet'; hooks: readonly BenchHook[]; atMaximum: PhaseResult }[],
): Promise<RateRow[]> {
  const publish = viaProducer(ctx.world.producer);
  const rows: RateRow[] = [];
  for (const { shape, hooks, atMaximum } of shapes)
    for (const rate of FIXED_RATES) {
      const lapMs = Math.round((hooks.length / rate) * 1000);
      const warmupMs =
        shape === 'quiet'
          ? Math.max(ctx.options.warmupMs, Math.min(lapMs, QUIET_WARMUP_MAX_MS))
          : ctx.options.warmupMs;
      const phase = await hooklinePhase(
        ctx,
        `${shape} ${hooks.length} hooks: open loop at ${rate}/s (CPU per delivery against the maximum)`,
        () => new OpenLoop(publish, ctx.receivers, hooks, rate),
        hooks,
        undefined,
        { warmupMs, measureMs: ctx.options.measureMs },
      );
      const mine = hooklineMicros(phase);
      const max = hooklineMicros(atMaximum);
      rows.push({
        shape,
        rate,
        phase,
        ...(cpuPerDelivery(phase) !== undefined ? { cpuMicrosPerDelivery: cpuPerDelivery(phase)! } : {}),
        ...(mine !== undefined ? { hooklineMicrosPerDelivery: Math.round(mine) } : {}),
        ...(mine !== undefined && max ? { ratioToMaximum: Math.round((mine / max) * 100) / 100 } : {}),
      });
      ctx.progress(
        `  ${shape} at ${rate}/s: ${mine === undefined ? '?' : Math.round(mine)} µs per delivery (hookline + Redis)` +
          (max ? `, ${Math.round(max)} at the maximum` : ''),
      );
    }
  return rows;
}

/** The rows and the cost line as text (figures from a loaded machine are not claims). */
export function formatRateRows(
  rows: readonly RateRow[],
  atMaximum?: number,
  floor: readonly BullmqRatio[] = [],
): string {
  const lines = [
    'CPU per delivery at fixed rates (hookline processes + Redis, µs; target ≤ 1.5 × the maximum):',
  ];
  for (const r of rows)
    lines.push(
      `  ${r.shape} at ${r.rate}/s: ${r.hooklineMicrosPerDelivery ?? '?'} µs, ${r.ratioToMaximum ?? '?'} × the maximum`,
    );
  for (const b of floor)
    lines.push(
      `  BullMQ alone at ${b.rate}/s: ${b.micros} µs per job, ${b.ratio} × its maximum (the reference)`,
    );
  if (atMaximum !== undefined) {
    const cost = costLine(atMaximum);
    lines.push(
      `Cost at the busy maximum: ${cost.coreMsPerDelivery} core-ms per delivery, ${cost.coreHoursPerMillion} core-hours per million deliveries`,
    );
  }
  return lines.join('\n');
}
