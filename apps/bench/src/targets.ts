import { cpuPerDelivery, type BenchResults, type TargetCheck } from './results';

type Figures = Omit<BenchResults, 'targets' | 'profile'>;

function atLeast(target: string, figure: string, value: number | undefined, limit: number): TargetCheck[] {
  if (value === undefined) return [];
  return [{ target, figure, value, limit, ratioToTarget: round(value / limit), met: value >= limit }];
}

function atMost(target: string, figure: string, value: number | undefined, limit: number): TargetCheck[] {
  if (value === undefined) return [];
  return [{ target, figure, value, limit, ratioToTarget: round(value / limit), met: value <= limit }];
}

/** Not a target check: the most hookline could reach given BullMQ's own cost (BullMQ alone). */
function bound(target: string, figure: string, value: number, limit: number): TargetCheck[] {
  return [
    { target, figure, value, limit, ratioToTarget: round(value / limit), met: value >= limit, bound: true },
  ];
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** The targets (for a 2-core machine), each checked against the figure it is about. */
export function checkTargets(r: Figures): TargetCheck[] {
  const { hookline: h, hanging, idle, bullmq } = r;
  const single = r.ceiling.oneStream.perSecond;
  const many = (c: { activeHooks: number; configuredHooks: number }) =>
    `${c.activeHooks} active of ${c.configuredHooks} configured`;
  const idleWorkers = idle.afterTraffic.workers;
  return [
    ...atLeast(
      'one hook >= 40% of the single-stream ceiling',
      'one hook: deliveries/s / ceiling (1 stream)',
      single > 0 ? round(h.oneHook.perSecond / single) : undefined,
      0.4,
    ),
    ...bound(
      'one hook >= 40% of the single-stream ceiling',
      'bound: BullMQ alone (1 queue) in series with the 1-stream ceiling / ceiling',
      bullmq.oneHookBound.ratioToCeiling,
      0.4,
    ),
    ...[h.active, h.configured].flatMap((c) =>
      atLeast(
        '1,000 active hooks >= 5,000 events/s',
        `${many(c)}: deliveries/s`,
        c.throughput.perSecond,
        5000,
      ),
    ),
    ...bound(
      '1,000 active hooks >= 5,000 events/s',
      `bound: BullMQ alone, ${bullmq.manyQueues.queues} queues, add + process: jobs/s`,
      bullmq.manyQueues.perSecond,
      5000,
    ),
    ...cpuBound(r),
    ...[h.active, h.configured].flatMap((c) =>
      atMost(
        `p99 <= 50 ms at ${r.meta.openRate} events/s`,
        `${many(c)}: p99 ms`,
        c.atRate.latency?.p99Ms,
        50,
      ),
    ),
    ...atMost(
      'hanging hooks move healthy p99 by <= 1.5x',
      `${Math.round(r.meta.openRate)}/s, ${hanging.hangingHooks} hanging: healthy p99 / p99 without`,
      hanging.atRate.latency && h.configured.atRate.latency
        ? round(hanging.atRate.latency.p99Ms / h.configured.atRate.latency.p99Ms)
        : undefined,
      1.5,
    ),
    ...atMost(
      `${idle.afterTraffic.configuredHooks} idle hooks: <= 20 Redis connections per worker`,
      'idle: most connections of one worker',
      Math.max(...idleWorkers.map((w) => w.redisConnections)),
      20,
    ),
    ...atMost(
      `${idle.afterTraffic.configuredHooks} idle hooks: <= 50 commands/s per worker`,
      'idle: most commands/s of one worker',
      Math.max(...idleWorkers.map((w) => w.commandsPerSecond)),
      50,
    ),
  ];
}

/**
 * The CPU bound: every delivery costs at least BullMQ's own CPU per job (BullMQ alone, many queues: bench +
 * Redis + Workers) plus one HTTP request's CPU (the ceiling at the same concurrency: client + receivers), and
 * the machine has `cpus` cores to spend, so no more than cpus / (both) deliveries per second fit, whatever
 * hookline does around them.
 */
function cpuBound(r: Figures): TargetCheck[] {
  const perJob = cpuPerDelivery(r.bullmq.manyQueues);
  const perRequest = cpuPerDelivery(r.ceiling.manyStreams);
  if (perJob === undefined || perRequest === undefined) return [];
  return bound(
    '1,000 active hooks >= 5,000 events/s',
    `bound: ${r.meta.cpus} cores / (BullMQ CPU per job + HTTP CPU per request): deliveries/s`,
    Math.round((r.meta.cpus * 1e6) / (perJob + perRequest)),
    5000,
  );
}
