import { cpuPerDelivery, type BenchResults, type LoadCase, type PhaseResult } from './results';
import { ratio } from './stats';
import type { HttpFloor } from './system/http-floor';
import { num } from './table';

// The sentences under the bench's main table: the HTTP tier, BullMQ's share, quiet against busy, lost events.

export function httpLines(r: BenchResults): string[] {
  const { http: h } = r;
  const t = h.tier;
  return [
    `HTTP tier (f): ${num(t.cpuMicrosPerAccepted)} µs CPU per accepted event (${num(t.accepted)} answered 202 in ` +
      `the window, ${num(t.acceptedPerSecond)}/s, cpu ${num(h.usage?.cpuPercent.http)}%); due -> 202 p50 ` +
      `${num(t.answer?.p50Ms, 2)} ms, p99 ${num(t.answer?.p99Ms, 2)} ms; ${num(t.redisConnections)} Redis ` +
      `connections, ${num(t.rssMb)} MB. LOG_LEVEL=info, as the workers (no line per request: the access lines are debug).`,
    ...floorLines(h.floor, t.cpuMicrosPerAccepted),
  ];
}

/** The tier's reference: Node, Fastify, pino and one Redis command per event, and what hookline adds to it. */
export function floorLines(floor: HttpFloor | undefined, tier: number | undefined): string[] {
  if (!floor) return [];
  const own =
    tier !== undefined && floor.cpuMicrosPerAccepted !== undefined
      ? tier - floor.cpuMicrosPerAccepted
      : undefined;
  return [
    `HTTP floor at ${floor.rate}/s (the same requests answered 202 by Fastify after one Redis command, no hookline ` +
      `code): ${num(floor.cpuMicrosPerAccepted)} µs CPU per 202 (${num(floor.accepted)} in the window, ` +
      `${num(floor.errors)} errors; p99 ${num(floor.answer?.p99Ms, 2)} ms); the tier ` +
      `${num(ratio(tier, floor.cpuMicrosPerAccepted), 2)}x the floor, hookline's own work ${num(own)} µs per event.`,
  ];
}

/** The quiet rows beside the busy ones of the same keyspace (configured case): rate and CPU per delivery. */
export function quietShareLines(r: BenchResults): string[] {
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

/** How much of hookline's time (one hook) and CPU (many hooks) per delivery BullMQ alone takes per job. */
export function bullmqShareLines(r: BenchResults): string[] {
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

export function lostLines(r: BenchResults): string[] {
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
