import {
  cpuPerDelivery,
  type BenchResults,
  type IdleResult,
  type LoadCase,
  type PhaseResult,
} from './results';
import { ratio } from './stats';
import type { WorkerUsage } from './system/usage-probe';
import { formatTable, num, upTo } from './table';

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
function row(label: string, p: PhaseResult, ceiling?: PhaseResult, latencyCeiling = ceiling): string[] {
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

function caseRows(tag: string, c: LoadCase, r: BenchResults, suffix = ''): string[][] {
  const name = `${tag} ${c.activeHooks} active / ${c.configuredHooks} hooks${suffix}`;
  return [
    row(`${name}, max`, c.throughput, r.ceiling.manyStreams),
    row(`${name}, at ${r.meta.openRate}/s`, c.atRate, r.ceiling.atRate),
  ];
}

function quietRows(r: BenchResults): string[][] {
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

function httpLines(r: BenchResults): string[] {
  const { http: h } = r;
  const t = h.tier;
  return [
    `HTTP tier (f): ${num(t.cpuMicrosPerAccepted)} µs CPU per accepted event (${num(t.accepted)} answered 202 in ` +
      `the window, ${num(t.acceptedPerSecond)}/s, cpu ${num(h.usage?.cpuPercent.http)}%); due -> 202 p50 ` +
      `${num(t.answer?.p50Ms, 2)} ms, p99 ${num(t.answer?.p99Ms, 2)} ms; ${num(t.redisConnections)} Redis ` +
      `connections, ${num(t.rssMb)} MB. LOG_LEVEL=info, as the workers: two log lines per request.`,
  ];
}

/** The quiet rows beside the busy ones of the same keyspace (configured case): rate and CPU per delivery. */
function quietShareLines(r: BenchResults): string[] {
  const { quiet: q } = r;
  const busy = r.hookline.configured;
  const cpu = (a: PhaseResult, b: PhaseResult) => {
    const [qa, bb] = [cpuPerDelivery(a), cpuPerDelivery(b)];
    return `${num(qa)} µs against ${num(bb)} µs (${num(ratio(qa, bb), 2)})`;
  };
  return [
    `Quiet against busy (${busy.activeHooks} active / ${busy.configuredHooks} hooks, the same keyspace): max ` +
      `${num(q.throughput.perSecond)}/s against ${num(busy.throughput.perSecond)}/s ` +
      `(${num(ratio(q.throughput.perSecond, busy.throughput.perSecond), 2)}); CPU per delivery, all processes, ` +
      `at max ${cpu(q.throughput, busy.throughput)}` +
      (q.rate === r.meta.openRate ? `, at ${q.rate}/s ${cpu(q.atRate, busy.atRate)}.` : '.'),
  ];
}

function idleRows(label: string, idle: IdleResult): string[][] {
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

function bullmqRows(r: BenchResults): string[][] {
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
  ];
}

/** How much of hookline's time (one hook) and CPU (many hooks) per delivery BullMQ alone takes per job. */
function bullmqShareLines(r: BenchResults): string[] {
  const { bullmq: b, hookline: h } = r;
  const wall = (p: PhaseResult) => (p.perSecond > 0 ? 1e6 / p.perSecond : undefined);
  const share = (part: number | undefined, whole: number | undefined) =>
    part !== undefined && whole ? `${num((100 * part) / whole)}%` : '-';
  const [bw, hw] = [wall(b.oneQueue), wall(h.oneHook)];
  const [bc, hc] = [cpuPerDelivery(b.manyQueues), cpuPerDelivery(h.active.throughput)];
  return [
    `BullMQ's own share: 1 hook: ${num(bw)} µs per job (BullMQ alone, wall) of hookline's ${num(hw)} µs per ` +
      `delivery (${r.meta.windows.singleHook} outstanding): ${share(bw, hw)};`,
    `${h.active.activeHooks} hooks: ${num(bc)} µs CPU per job (BullMQ alone, bench + redis + host) of hookline's ` +
      `${num(hc)} µs per delivery (closed loop): ${share(bc, hc)}.`,
  ];
}

function redisRows(r: BenchResults): string[][] {
  const phases: [string, PhaseResult][] = [
    ['BullMQ alone: adds, 1 queue', r.bullmq.addBulk],
    ['BullMQ alone: 1 queue, process only', r.bullmq.oneQueue],
    [`BullMQ alone: ${r.bullmq.manyQueues.queues} queues, add + process`, r.bullmq.manyQueues],
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

function lostLines(r: BenchResults): string[] {
  const phases: [string, PhaseResult][] = [
    ['cold start', r.hookline.coldStart],
    ['(f) via HTTP, at rate', r.http],
    ...(
      [
        ['(b) all active', r.hookline.active],
        ['(b) of all configured', r.hookline.configured],
        ['(c) hanging', r.hanging],
        ['(e) quiet', r.quiet],
      ] as [string, LoadCase][]
    ).flatMap(([label, c]): [string, PhaseResult][] => [
      [`${label}, max`, c.throughput],
      [`${label}, at rate`, c.atRate],
    ]),
  ];
  return phases
    .filter(([, p]) => p.stranded)
    .map(
      ([label, p]) =>
        `  ${label}: ${p.tally?.undelivered} events missing; ${p.stranded!.withEvents} hooks still hold events, ` +
        `${p.stranded!.unclaimed} of them with no lease and no ready signal (nothing will wake them)`,
    );
}

export function formatReport(r: BenchResults): string {
  const m = r.meta;
  const out: string[] = [
    `hookline bench${m.quick ? " (--quick: reduced sizes, not the issue's figures)" : ''}: ${m.workers} worker processes ` +
      `(${m.worker}, ${m.maxHooksPerWorker} hooks each at most), node ${m.node}, Redis ${m.redisVersion}, ` +
      `${m.cpus} CPUs, load average ${m.loadAverageAtStart} at start, deadline ${m.deadlineMs} ms, ${m.durationSeconds} s`,
    '',
    'Deliveries/s and publish->receipt latency; ratios are to the ceiling at the same concurrency',
    '(1 stream for one hook, N streams for N active hooks, the same open-loop rate for the "at N/s" rows).',
    'cpu% = bench (publisher + receivers) / redis / each worker, then m = the suspension monitor, h = the HTTP',
    'tier (row f), 100 = one core;',
    'others = the rest of the machine (anything above a few % means the figures are low);',
    'µs/delivery = CPU per delivery, bench/redis/each worker, m = monitor, h = HTTP tier; µs total = all of them;',
    'conns/delivery = Redis connections opened per delivery (INFO stats total_connections_received, whole server);',
    "worker conns, worker RSS MB = Redis connections and resident memory (MB) of each worker process at the window's end;",
    `lost = events not received ${Math.round(m.drainTimeoutMs / 1000)} s after publishing stopped.`,
    "(a') BullMQ alone: hookline's queues and jobs through BullMQ's scripts as hookline runs them, no-op, no HTTP; per s = jobs;",
    'the Workers run in a process of their own, in the "workers" place of cpu% and µs/delivery.',
    '',
    formatTable(
      [
        'figure',
        'per s',
        'ratio',
        'p50 ms',
        'p99 ms',
        'p99 ratio',
        'cpu%',
        'others',
        'µs/delivery',
        'µs total',
        'conns/delivery',
        'worker conns',
        'worker RSS MB',
        'lost',
      ],
      [
        row('(a) ceiling: undici, 1 stream', r.ceiling.oneStream, r.ceiling.oneStream),
        row(
          `(a) ceiling: undici, ${r.ceiling.manyStreams.streams} streams`,
          r.ceiling.manyStreams,
          r.ceiling.manyStreams,
        ),
        row(`(a) ceiling: undici at ${m.openRate}/s`, r.ceiling.atRate, r.ceiling.atRate),
        ...bullmqRows(r),
        row('(b) 1 hook, one event at a time', r.hookline.oneHookUnloaded, r.ceiling.oneStream),
        row(`(b) 1 hook, ${m.windows.singleHook} outstanding`, r.hookline.oneHook, r.ceiling.oneStream),
        row(
          `(b) ${r.hookline.active.activeHooks} hooks from cold at ${m.openRate}/s (no warm-up)`,
          r.hookline.coldStart,
          r.ceiling.atRate,
        ),
        ...caseRows('(b)', r.hookline.active, r),
        ...caseRows('(b)', r.hookline.configured, r),
        ...caseRows('(c)', r.hanging, r, `, ${r.hanging.hangingHooks} hanging (healthy hooks' figures)`),
        row(
          `(f) ${r.http.activeHooks} active / ${r.http.configuredHooks} hooks, at ${r.http.rate}/s through the HTTP API`,
          r.http,
          r.ceiling.atRate,
        ),
        ...quietRows(r),
      ],
    ),
    ...httpLines(r),
    ...bullmqShareLines(r),
    ...quietShareLines(r),
    ...(lostLines(r).length > 0
      ? [
          '',
          `Events not received ${Math.round(m.drainTimeoutMs / 1000)} s after publishing stopped:`,
          ...lostLines(r),
        ]
      : []),
    '',
    `(d) Workers while idle (per process), and hook creation: ${num(r.hookline.idleHookCreation.perSecond)} hooks/s via store.hooks.create`,
    formatTable(
      ['when', 'redis conns', 'cmds/s', 'RSS MB', 'attached', 'commands'],
      [
        ...idleRows('before traffic', r.idle.beforeTraffic),
        ...idleRows('after traffic', r.idle.afterTraffic),
      ],
    ),
    '',
    'Under load (end of each phase): per worker attached hooks / Redis connections / RSS MB / deliveries/s',
    formatTable(
      ['phase', 'worker 1', 'worker 2'],
      [
        ['1 hook, max', r.hookline.oneHook],
        [`${r.hookline.active.activeHooks} active, max`, r.hookline.active.throughput],
        [`${r.hanging.activeHooks} active, ${r.hanging.hangingHooks} hanging, max`, r.hanging.throughput],
        [`${r.http.activeHooks} active, via HTTP at ${r.http.rate}/s`, r.http],
        [`quiet ${r.quiet.activeHooks}, max`, r.quiet.throughput],
        [`quiet ${r.quiet.activeHooks}, at ${r.quiet.rate}/s`, r.quiet.atRate],
      ].map(([label, p]) => [
        label as string,
        ...((p as PhaseResult).usage?.workers ?? []).map(
          (w) =>
            `${num(w.attachedHooks)} / ${num(w.redisConnections)} / ${num(w.rssMb)} / ${num(w.deliveredPerSecond)}`,
        ),
      ]),
    ),
    '',
    'Redis per delivery (INFO commandstats over the window, whole server; script bodies counted inside evalsha)',
    formatTable(['phase', 'calls', 'cpu µs', 'busiest commands (calls, cpu µs)'], redisRows(r)),
    '',
    'Targets (2-core machine; benchmark figures, not test assertions)',
    formatTable(
      ['target', 'figure', 'value', 'limit', 'value/limit', ''],
      r.targets.map((t) => [
        t.target,
        t.figure,
        upTo(t.value),
        upTo(t.limit),
        num(t.ratioToTarget, 2),
        t.bound ? (t.met ? 'reachable' : 'OUT OF REACH') : t.met ? 'met' : 'MISSED',
      ]),
    ),
  ];
  if (r.profile) {
    out.push(
      '',
      `Worker CPU profile (both processes, whole run, ${num(r.profile.busyMs)} ms busy): self time by module`,
      formatTable(
        ['module', 'ms', '%'],
        r.profile.modules.map((s) => [s.name, num(s.selfMs), num(s.percent, 1)]),
      ),
      '',
      'Top functions by self time',
      formatTable(
        ['function', 'ms', '%'],
        r.profile.functions.map((s) => [s.name, num(s.selfMs), num(s.percent, 1)]),
      ),
    );
  }
  return out.join('\n');
}
