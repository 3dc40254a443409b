import { bullmqShareLines, httpLines, lostLines, quietShareLines } from './report-notes';
import { bullmqRows, caseRows, idleRows, quietRows, redisRows, row } from './report-rows';
import type { BenchResults, PhaseResult } from './results';
import { formatTable, num, upTo } from './table';
import { formatWholeStack } from './whole-stack';

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
          r.http.rate === m.openRate ? r.ceiling.atRate : undefined,
        ),
        ...(r.wholeStack
          ? [
              row(
                `(g) the whole stack: ${r.wholeStack.activeHooks} hooks at ${r.wholeStack.rate}/s through the HTTP API, history on`,
                r.wholeStack.phase,
                r.wholeStack.rate === m.openRate ? r.ceiling.atRate : undefined,
              ),
            ]
          : []),
        ...quietRows(r),
      ],
    ),
    ...httpLines(r),
    ...(r.wholeStack ? [formatWholeStack(r.wholeStack)] : []),
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
    'Worker RSS after the traffic: right after it / once V8 has collected and given pages back (settled):',
    ...r.idle.settled.map(
      (w, i) =>
        `  worker ${i + 1}: ${num(w.rssMbAfterTraffic, 1)} MB / ${num(w.rssMb, 1)} MB ${w.settled ? `settled after ${Math.round(w.waitedMs / 1000)} s` : `NOT settled within ${Math.round(w.waitedMs / 1000)} s`}`,
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
