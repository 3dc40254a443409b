import {
  cpuPerDelivery,
  type BenchResults,
  type IdleResult,
  type LoadCase,
  type PhaseResult,
} from './results';
import { ratio } from './stats';
import type { WorkerUsage } from './system/usage-probe';
import { num } from './table';

// The rows of the bench's tables: one phase each, the same columns for every row (see formatReport).

/** ` m<monitor>` and ` h<HTTP tier>` after the per-process figures, where those processes ran. */
const besides = (monitor: number | undefined, http: number | undefined) =>
  (monitor !== undefined ? ` m${num(monitor)}` : '') + (http !== undefined ? ` h${num(http)}` : '');

const cpuOf = (p: PhaseResult) => {
  const u = p.usage;
  if (!u) return ['-', '-'];
  return [
    [u.cpuPercent.bench, u.cpuPercent.redis, ...u.workers.map((w) => w.cpuPercent)]
      .map((v) => num(v))
      .join('/') + besides(u.cpuPercent.monitor, u.cpuPercent.http),
    num(u.cpuPercent.others),
  ];
};

/** bench/redis/each worker, then monitor and HTTP tier: CPU µs per delivery of every process. */
const costOf = (p: PhaseResult) => {
  const u = p.usage;
  const c = u?.cpuMicrosPerDelivery;
  if (!u || !c || p.perSecond <= 0) return '-';
  const perWorker = u.workers.map((w) => w.cpuMicrosPerDelivery);
  const workers = perWorker.every((v) => v !== undefined) ? perWorker : [c.workers];
  return [c.bench, c.redis, ...workers].map((v) => num(v)).join('/') + besides(c.monitor, c.http);
};

/** Redis connections opened per delivery: 4 decimals, since the target is at most 0.001. */
const connectionsOf = (p: PhaseResult) =>
  p.usage && p.perSecond > 0 ? num(p.usage.redisConnectionsPerDelivery, 4) : '-';

/** Per worker process at the window's end, `a/b`: its Redis connections, or its RSS in MB. */
const perWorker = (p: PhaseResult, pick: (w: WorkerUsage) => number | undefined) =>
  p.usage && p.usage.workers.length > 0 ? p.usage.workers.map((w) => num(pick(w))).join('/') : '-';

/** One row: deliveries/s and latency, each beside its ratio to the matching ceiling figure (if there is one). */
export function row(
  label: string,
  p: PhaseResult,
  ceiling?: PhaseResult,
  latencyCeiling = ceiling,
): string[] {
  return [
    label,
    num(p.perSecond),
    num(ratio(p.perSecond, ceiling?.perSecond), 3),
    num(p.latency?.p50Ms, 2),
    num(p.latency?.p99Ms, 2),
    num(ratio(p.latency?.p99Ms, latencyCeiling?.latency?.p99Ms), 1),
    ...cpuOf(p),
    costOf(p),
    num(cpuPerDelivery(p)),
    connectionsOf(p),
    perWorker(p, (w) => w.redisConnections),
    perWorker(p, (w) => w.rssMb),
    p.tally ? num(p.tally.undelivered) : '',
  ];
}

export function caseRows(tag: string, c: LoadCase, r: BenchResults, suffix = ''): string[][] {
  const name = `${tag} ${c.activeHooks} active / ${c.configuredHooks} hooks${suffix}`;
  return [
    row(`${name}, max`, c.throughput, r.ceiling.manyStreams),
    row(`${name}, at ${r.meta.openRate}/s`, c.atRate, r.ceiling.atRate),
  ];
}

export function quietRows(r: BenchResults): string[][] {
  const q = r.quiet;
  const name = `(e) quiet ${q.activeHooks} active / ${q.configuredHooks} hooks`;
  return [
    row(`${name}, max (${q.outstanding} outstanding in all)`, q.throughput, r.ceiling.manyStreams),
    row(
      `${name}, at ${q.rate}/s (each hook every ${q.secondsBetweenEvents} s)`,
      q.atRate,
      q.rate === r.meta.openRate ? r.ceiling.atRate : undefined,
    ),
  ];
}

export function idleRows(label: string, idle: IdleResult): string[][] {
  return idle.workers.map((w, i) => [
    `${label} (${idle.configuredHooks} hooks), worker ${i + 1}`,
    num(w.redisConnections),
    num(w.commandsPerSecond, 1),
    num(w.rssMb, 1),
    num(w.attachedHooks),
    Object.entries(w.byCommand)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([c, n]) => `${c} ${num(n / idle.seconds, 1)}/s`)
      .join(', '),
  ]);
}

export function bullmqRows(r: BenchResults): string[][] {
  const b = r.bullmq;
  const bound: PhaseResult = { perSecond: b.oneHookBound.perSecond, hangingReceipts: 0, seconds: 0 };
  return [
    row(`(a') BullMQ alone: adds into 1 queue (${num(b.addBulk.jobs)} jobs)`, b.addBulk),
    row(
      `(a') BullMQ alone: 1 queue, 1 job at a time${b.oneQueue.ranDry ? ' (RAN DRY)' : ''}`,
      b.oneQueue,
      r.ceiling.oneStream,
    ),
    row("(a') bound for 1 hook: the row above + 1 stream, in series", bound, r.ceiling.oneStream),
    row(
      `(a') BullMQ alone: ${b.manyQueues.queues} queues, add + process, ${b.manyQueues.window} outstanding each`,
      b.manyQueues,
      r.ceiling.manyStreams,
    ),
    ...(b.manyQueues.atRates ?? []).map((p) =>
      row(`(a') BullMQ alone: ${b.manyQueues.queues} queues, add + process at ${p.rate}/s`, p),
    ),
  ];
}

export function redisRows(r: BenchResults): string[][] {
  const phases: [string, PhaseResult][] = [
    ['BullMQ alone: adds, 1 queue', r.bullmq.addBulk],
    ['BullMQ alone: 1 queue, process only', r.bullmq.oneQueue],
    [`BullMQ alone: ${r.bullmq.manyQueues.queues} queues, add + process`, r.bullmq.manyQueues],
    ...(r.bullmq.manyQueues.atRates ?? []).map((p): [string, PhaseResult] => [
      `BullMQ alone: ${r.bullmq.manyQueues.queues} queues, at ${p.rate}/s`,
      p,
    ]),
    ['1 hook, max', r.hookline.oneHook],
    [`${r.hookline.active.activeHooks} active, max`, r.hookline.active.throughput],
    [
      `${r.hookline.configured.activeHooks} active / ${r.hookline.configured.configuredHooks}, max`,
      r.hookline.configured.throughput,
    ],
    [`${r.http.activeHooks} active / ${r.http.configuredHooks}, via HTTP at ${r.http.rate}/s`, r.http],
    [`quiet ${r.quiet.activeHooks} / ${r.quiet.configuredHooks}, max`, r.quiet.throughput],
    [`quiet ${r.quiet.activeHooks} / ${r.quiet.configuredHooks}, at ${r.quiet.rate}/s`, r.quiet.atRate],
  ];
  return phases.map(([label, p]) => {
    const rd = p.usage?.redisPerDelivery;
    return [
      label,
      num(rd?.calls, 1),
      num(rd?.cpuMicros, 0),
      (rd?.top ?? [])
        .slice(0, 5)
        .map((t) => `${t.command} ${t.calls}x ${t.cpuMicros}µs`)
        .join(', '),
    ];
  });
}
