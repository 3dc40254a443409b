import { costTargets } from './cost-targets';
import { atLeast, atMost, boundAtMost } from './target-check';
import { cpuPerDelivery, type BenchResults, type PhaseResult, type TargetCheck } from './results';

type Figures = Omit<BenchResults, 'targets' | 'profile'>;

export { atLeast, atMost };

/** a / b, rounded; undefined when either is unknown or b is 0. */
export function share(a: number | undefined, b: number | undefined): number | undefined {
  return a !== undefined && b !== undefined && b !== 0 ? round(a / b) : undefined;
}

/** The highest of the values, or undefined if any of them is unknown (the target is then left out). */
export function mostOf(values: readonly (number | undefined)[]): number | undefined {
  return values.every((v) => v !== undefined) && values.length > 0 ? Math.max(...values) : undefined;
}

/** The phase with the highest `pick` (ignoring phases where it is unknown), with its label. */
export function worstOf(
  phases: readonly (readonly [string, PhaseResult])[],
  pick: (p: PhaseResult) => number | undefined,
): { label: string; value: number } | undefined {
  let worst: { label: string; value: number } | undefined;
  for (const [label, p] of phases) {
    const value = pick(p);
    if (value !== undefined && (worst === undefined || value > worst.value)) worst = { label, value };
  }
  return worst;
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
      mostOf(idleWorkers.map((w) => w.commandsPerSecond)),
      50,
    ),
    ...quietTargets(r),
    ...costTargets(r),
  ];
}

/** Deliveries timed in a phase's window put Redis connections opened in it in proportion. */
const opened = (p: PhaseResult) => (p.perSecond > 0 ? p.usage?.redisConnectionsPerDelivery : undefined);

/**
 * Issue 11, quiet hooks: a quiet hook's delivery costs about what a busy hook's does. "Busy" is the busy case
 * in the same keyspace (the configured case: the quiet hooks are among its configured hooks), except for the
 * BullMQ-alone comparison, which is about the busy hooks with nothing else configured, as BullMQ alone runs.
 */
function quietTargets(r: Figures): TargetCheck[] {
  const { quiet: q, hookline: h, http, idle, bullmq } = r;
  const busy = h.configured;
  const quietName = `quiet ${q.activeHooks} of ${q.configuredHooks}`;
  const busyName = `busy ${busy.activeHooks} of ${busy.configuredHooks}`;
  const atRate = `at ${q.rate}/s over ${q.activeHooks} quiet hooks`;
  const cpuTarget = 'CPU per delivery (all processes): quiet / busy <= 1.25';
  const connTarget = 'Redis connections opened per delivery <= 0.001';
  const others = worstOf(
    [
      ['1 hook, one at a time', h.oneHookUnloaded],
      ['1 hook, max', h.oneHook],
      ['cold start', h.coldStart],
      ...([h.active, busy, r.hanging] as const).flatMap((c): [string, PhaseResult][] => [
        [`${c.activeHooks} of ${c.configuredHooks}, max`, c.throughput],
        [`${c.activeHooks} of ${c.configuredHooks}, at rate`, c.atRate],
      ]),
      ['via HTTP', http],
    ],
    opened,
  );
  const afterAll = idle.afterTraffic.workers;
  return [
    ...atLeast(
      'quiet max >= 0.8 x busy max (same run)',
      `${quietName} / ${busyName}: deliveries/s`,
      share(q.throughput.perSecond, busy.throughput.perSecond),
      0.8,
    ),
    ...atMost(
      `quiet ${atRate}: p99 <= 50 ms`,
      `${quietName}, ${q.rate}/s: p99 ms`,
      q.atRate.latency?.p99Ms,
      50,
    ),
    ...atMost(`quiet ${atRate}: 0 lost`, `${quietName}, ${q.rate}/s: lost`, q.atRate.tally?.undelivered, 0),
    ...atMost(
      cpuTarget,
      `${quietName} / ${busyName}, max: µs total`,
      share(cpuPerDelivery(q.throughput), cpuPerDelivery(busy.throughput)),
      1.25,
    ),
    // Only at the same rate: at a lower one, each delivery carries more of the processes' fixed costs.
    ...(q.rate === r.meta.openRate
      ? atMost(
          cpuTarget,
          `${quietName} / ${busyName}, at ${q.rate}/s: µs total`,
          share(cpuPerDelivery(q.atRate), cpuPerDelivery(busy.atRate)),
          1.25,
        )
      : []),
    ...atMost(connTarget, `${quietName}, max`, opened(q.throughput), 0.001),
    ...atMost(connTarget, `${quietName}, ${q.rate}/s`, opened(q.atRate), 0.001),
    ...(others
      ? atMost(connTarget, `busy, most of any other phase (${others.label})`, others.value, 0.001)
      : []),
    ...atLeast(
      'busy max >= 0.85 x BullMQ alone (same queues, add + process)',
      `${h.active.activeHooks} of ${h.active.configuredHooks} / BullMQ alone, ${bullmq.manyQueues.queues} queues: per s`,
      share(h.active.throughput.perSecond, bullmq.manyQueues.perSecond),
      0.85,
    ),
    ...atMost(
      'after the whole bench: <= 8 Redis connections per worker',
      'idle after traffic: most connections of one worker',
      Math.max(...afterAll.map((w) => w.redisConnections)),
      8,
    ),
    // Judged at rest: right after the traffic the heap still holds the load's uncollected garbage, which V8
    // gives back tens of seconds later (system/memory-settle.ts); that figure is reported beside it.
    ...atMost(
      'after the whole bench: <= 150 MB RSS per worker',
      idle.settled.every((w) => w.settled)
        ? 'settled after traffic: most RSS MB of one worker'
        : 'after traffic, NOT settled within the wait: most RSS MB of one worker',
      Math.max(...idle.settled.map((w) => w.rssMb)),
      150,
    ),
    ...atMost(
      'HTTP tier <= 300 µs CPU per accepted event',
      `${http.activeHooks} busy hooks at ${http.rate}/s via the API: µs per 202`,
      http.tier.cpuMicrosPerAccepted,
      300,
    ),
    // Not a check: Node, Fastify and one Redis command per event, with no hookline code (system/http-floor.ts).
    ...boundAtMost(
      'HTTP tier <= 300 µs CPU per accepted event',
      `bound: Fastify + one Redis command at ${http.floor?.rate ?? '-'}/s: µs per 202`,
      http.floor?.cpuMicrosPerAccepted,
      300,
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
