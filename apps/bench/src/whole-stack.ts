import { HttpPublisher } from './load/http-publisher';
import { OpenLoop, type BenchHook } from './load/hookline-load';
import type { WindowProbe } from './load/measure';
import { hooklinePhase, type PhaseContext } from './phases';
import type { WholeStackRow } from './results';
import type { HttpTier } from './system/http-tier';
import { backendsCpuSeconds, backendsCpuUsed, postgresBackendsOf } from './system/postgres-cpu';
import { usageProbe, type PhaseUsage } from './system/usage-probe';

/** The rate of the whole-stack row: events through the HTTP API, per second (issue 28's figure). */
export const WHOLE_STACK_RATE = 1000;
const WARMUP_MS = 5000;

export async function wholeStackPhase(
  ctx: PhaseContext,
  tier: HttpTier,
  hooks: readonly BenchHook[],
): Promise<WholeStackRow> {
  const { options, receivers, world, fleet } = ctx;
  const backends = await postgresBackendsOf(options.databaseUrl, [...fleet.pids, fleet.monitorPid, tier.pid]);
  const publisher = new HttpPublisher(tier.base, tier.apiKey);
  const usage = usageProbe(world.redis, fleet, tier.pid);
  let postgresAtStart: (number | undefined)[] = [];
  let postgresSeconds = 0;
  let deliveredInWindow = 0;
  const probe: WindowProbe<PhaseUsage> = {
    begin() {
      postgresAtStart = backendsCpuSeconds(backends);
      return usage.begin();
    },
    end(mark, deliveries, seconds) {
      postgresSeconds = backendsCpuUsed(postgresAtStart, backendsCpuSeconds(backends));
      deliveredInWindow = deliveries;
      return usage.end(mark, deliveries, seconds);
    },
  };
  try {
    const phase = await hooklinePhase(
      ctx,
      `the whole stack: ${hooks.length} hooks, ${WHOLE_STACK_RATE}/s through the HTTP API, history to PostgreSQL`,
      () => new OpenLoop(publisher.publish, receivers, hooks, WHOLE_STACK_RATE),
      hooks,
      undefined,
      { warmupMs: Math.max(options.warmupMs, WARMUP_MS), measureMs: options.measureMs },
      probe,
    );
    const postgres =
      deliveredInWindow > 0 ? Math.round((postgresSeconds * 1e6) / deliveredInWindow) : undefined;
    const c = phase.usage?.cpuMicrosPerDelivery;
    const stack =
      c?.workers !== undefined && postgres !== undefined
        ? c.redis + c.workers + (c.monitor ?? 0) + (c.http ?? 0) + postgres
        : undefined;
    ctx.progress(
      `  every process but the bench: ${stack ?? '-'} µs CPU per delivery (PostgreSQL ${postgres ?? '-'} µs, ` +
        `${backends.length} backends), p99 publish -> receipt ${phase.latency?.p99Ms ?? '-'} ms`,
    );
    return {
      rate: WHOLE_STACK_RATE,
      activeHooks: hooks.length,
      phase,
      postgresBackends: backends.length,
      ...(postgres !== undefined ? { postgresMicrosPerDelivery: postgres } : {}),
      ...(stack !== undefined ? { stackMicrosPerDelivery: stack } : {}),
    };
  } finally {
    await publisher.close();
  }
}

/** The row as text, under the main table. */
export function formatWholeStack(w: WholeStackRow): string {
  const c = w.phase.usage?.cpuMicrosPerDelivery;
  const part = (name: string, v: number | undefined) => `${name} ${v ?? '-'}`;
  return (
    `Whole stack (g): ${w.activeHooks} hooks, ${w.rate}/s through the HTTP API, history to PostgreSQL: ` +
    `${w.phase.perSecond}/s delivered, p50 ${w.phase.latency?.p50Ms ?? '-'} ms, p99 ${w.phase.latency?.p99Ms ?? '-'} ms ` +
    `publish -> receipt; ${w.stackMicrosPerDelivery ?? '-'} µs CPU per delivery, every process but the bench (` +
    [
      part('HTTP tier', c?.http),
      part('workers', c?.workers),
      part('monitor', c?.monitor),
      part('Redis', c?.redis),
      part(`PostgreSQL (${w.postgresBackends} backends)`, w.postgresMicrosPerDelivery),
    ].join(', ') +
    `; the bench's load generator and receivers ${c?.bench ?? '-'})`
  );
}
