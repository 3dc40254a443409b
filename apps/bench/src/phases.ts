import { nowMicros, sleep } from './clock';
import { HttpPublisher } from './load/http-publisher';
import { ClosedLoop, OpenLoop, QuietLoop, viaProducer, type BenchHook } from './load/hookline-load';
import { measureWindow, type WindowProbe, type WindowTiming } from './load/measure';
import type { BenchOptions } from './options';
import type { Receivers } from './receivers/receivers';
import type { HttpPhase, IdleResult, LoadCase, PhaseResult, QuietCase } from './results';
import type { BenchWorld } from './setup';
import { findStrandedHooks } from './stranded';
import { watchClients } from './system/redis-activity';
import type { HttpTier } from './system/http-tier';
import { usageProbe, type PhaseUsage } from './system/usage-probe';
import type { WorkerFleet } from './system/worker-fleet';

export interface PhaseContext {
  readonly options: BenchOptions;
  readonly world: BenchWorld;
  readonly receivers: Receivers;
  readonly fleet: WorkerFleet;
  readonly progress: (line: string) => void;
}

export const timingOf = (options: BenchOptions): WindowTiming => ({
  warmupMs: options.warmupMs,
  measureMs: options.measureMs,
});

/** One hookline phase: load, a measured window, then a drain so the next phase starts from empty queues. */
export async function hooklinePhase(
  ctx: PhaseContext,
  label: string,
  start: () => ClosedLoop | OpenLoop | QuietLoop,
  hooks: readonly BenchHook[],
  beforeDrain?: () => Promise<void>,
  timing = timingOf(ctx.options),
  probe: WindowProbe<PhaseUsage> = usageProbe(ctx.world.redis, ctx.fleet),
): Promise<PhaseResult> {
  ctx.progress(label);
  const load = start();
  const window = await measureWindow(ctx.receivers, timing, probe);
  await beforeDrain?.();
  const tally = await load.finish(ctx.options.drainTimeoutMs);
  const stranded = tally.undelivered > 0 ? await findStrandedHooks(ctx.world, hooks) : undefined;
  ctx.progress(
    `  ${window.perSecond}/s, p50 ${window.latency?.p50Ms ?? '-'} ms, p99 ${window.latency?.p99Ms ?? '-'} ms` +
      (tally.undelivered > 0 ? `, ${tally.undelivered} undelivered after drain` : '') +
      (tally.publishErrors > 0 ? `, ${tally.publishErrors} publish errors (${tally.firstError})` : ''),
  );
  if (stranded)
    ctx.progress(
      `  ${stranded.withEvents} hooks still hold events, ${stranded.unclaimed} with no lease and no signal` +
        (stranded.examples.length > 0 ? `: ${stranded.examples.join(', ')}` : ''),
    );
  return { ...window, tally, ...(stranded ? { stranded } : {}) };
}

/** Throughput (closed loop) and latency at the fixed rate (open loop) over the same active hooks. */
export async function loadCase(
  ctx: PhaseContext,
  label: string,
  hooks: readonly BenchHook[],
  configuredHooks: number,
  hang?: { hooks: readonly number[] },
): Promise<LoadCase> {
  const publish = viaProducer(ctx.world.producer);
  const { options, receivers } = ctx;
  const unhang = async () => {
    if (hang) await receivers.setHanging([]);
  };
  const withHang = async () => {
    if (hang) await receivers.setHanging(hang.hooks);
  };
  // Throughput first: the open loop then starts with the hooks attached, as in steady operation, whichever
  // case it belongs to (the cold start is measured on its own, see coldStart).
  await withHang();
  const throughput = await hooklinePhase(
    ctx,
    `${label}: closed loop, ${options.manyHooksWindow} outstanding per hook`,
    () => new ClosedLoop(publish, receivers, hooks, options.manyHooksWindow),
    hooks,
    unhang,
  );
  await withHang();
  const atRate = await hooklinePhase(
    ctx,
    `${label}: open loop at ${options.openRate}/s`,
    () => new OpenLoop(publish, receivers, hooks, options.openRate),
    hooks,
    unhang,
  );
  return { activeHooks: hooks.length, configuredHooks, throughput, atRate };
}

/**
 * The quiet shape over many hooks, each alone on its account: first as fast as it goes (QuietLoop: a fixed
 * number of events outstanding in all, round robin, never two for one hook), then the open loop at the quiet
 * rate, round robin, so each hook gets an event every quietHooks / quietRate seconds. That open loop warms up
 * for one whole lap, so every event in its window goes to a hook whose previous event was one lap earlier.
 */
export async function quietCase(
  ctx: PhaseContext,
  hooks: readonly BenchHook[],
  configuredHooks: number,
): Promise<QuietCase> {
  const publish = viaProducer(ctx.world.producer);
  const { options, receivers } = ctx;
  const label = `quiet ${hooks.length} of ${configuredHooks}`;
  const overlap = (p: PhaseResult) =>
    ctx.progress(
      `  ${p.tally?.overlapping ?? 0} events went to a hook whose previous event was still out` +
        (p.tally?.skipped !== undefined ? `; the round robin passed over ${p.tally.skipped} hooks` : ''),
    );
  const throughput = await hooklinePhase(
    ctx,
    `${label}: closed loop, ${options.quietOutstanding} outstanding in all, round robin`,
    () => new QuietLoop(publish, receivers, hooks, options.quietOutstanding),
    hooks,
  );
  overlap(throughput);
  const lapMs = Math.round((hooks.length / options.quietRate) * 1000);
  const atRate = await hooklinePhase(
    ctx,
    `${label}: open loop at ${options.quietRate}/s, each hook every ${lapMs / 1000} s (warm-up: one lap)`,
    () => new OpenLoop(publish, receivers, hooks, options.quietRate),
    hooks,
    undefined,
    { warmupMs: Math.max(options.warmupMs, lapMs), measureMs: options.measureMs },
  );
  overlap(atRate);
  return {
    activeHooks: hooks.length,
    configuredHooks,
    throughput,
    atRate,
    outstanding: options.quietOutstanding,
    rate: options.quietRate,
    secondsBetweenEvents: lapMs / 1000,
  };
}

export const HTTP_WARMUP_MS = 5000;

/**
 * The busy hooks again at the open-loop rate, but published through the HTTP API (`tier`, a process of its
 * own) instead of the in-process producer: the row compares with the busy open loop of the same keyspace,
 * and the tier's CPU per accepted event is its CPU over the window / the events it answered 202 in it.
 */
export async function httpPhase(
  ctx: PhaseContext,
  tier: HttpTier,
  hooks: readonly BenchHook[],
  configuredHooks: number,
  rate = ctx.options.openRate,
): Promise<HttpPhase> {
  const { options, receivers, world, fleet } = ctx;
  const publisher = new HttpPublisher(tier.base, tier.apiKey);
  const usage = usageProbe(world.redis, fleet, tier.pid);
  const edges = { from: 0, to: 0, acceptedFrom: 0, acceptedTo: 0 };
  // The accepted count is read at the same instants as the tier's CPU (usage reads it first thing).
  const probe: WindowProbe<PhaseUsage> = {
    begin() {
      edges.acceptedFrom = publisher.accepted;
      edges.from = nowMicros();
      return usage.begin();
    },
    end(mark, deliveries, seconds) {
      edges.acceptedTo = publisher.accepted;
      edges.to = nowMicros();
      return usage.end(mark, deliveries, seconds);
    },
  };
  try {
    const result = await hooklinePhase(
      ctx,
      `${hooks.length} of ${configuredHooks} through the HTTP API: open loop at ${rate}/s`,
      () => new OpenLoop(publisher.publish, receivers, hooks, rate),
      hooks,
      undefined,
      // The tier starts just before this phase: its first seconds (compiling, first connections) are warm-up.
      { warmupMs: Math.max(options.warmupMs, HTTP_WARMUP_MS), measureMs: options.measureMs },
      probe,
    );
    const accepted = edges.acceptedTo - edges.acceptedFrom;
    const seconds = (edges.to - edges.from) / 1e6;
    const cpuSeconds = result.usage?.httpCpuSeconds;
    const answer = publisher.answerLatency(edges.from, edges.to);
    const sample = await tier.sample();
    const figures = {
      accepted,
      acceptedPerSecond: Math.round(accepted / seconds),
      ...(cpuSeconds !== undefined && accepted > 0
        ? { cpuMicrosPerAccepted: Math.round((cpuSeconds * 1e6) / accepted) }
        : {}),
      ...(answer ? { answer } : {}),
      ...sample,
    };
    ctx.progress(
      `  HTTP tier: ${figures.cpuMicrosPerAccepted ?? '-'} µs CPU per accepted event, 202 after ` +
        `p50 ${answer?.p50Ms ?? '-'} ms / p99 ${answer?.p99Ms ?? '-'} ms, ${sample.redisConnections} Redis ` +
        `connections, ${sample.rssMb} MB`,
    );
    return { ...result, activeHooks: hooks.length, configuredHooks, rate, tier: figures };
  } finally {
    await publisher.close();
  }
}

/**
 * The open loop from the first event on, with no warm-up excluded: every hook starts detached, as when a
 * burst of traffic reaches many quiet hooks at once.
 */
export async function coldStart(ctx: PhaseContext, hooks: readonly BenchHook[]): Promise<PhaseResult> {
  const { options, receivers, world } = ctx;
  return hooklinePhase(
    ctx,
    `${hooks.length} hooks from cold: open loop at ${options.openRate}/s, first ${options.measureMs / 1000} s`,
    () => new OpenLoop(viaProducer(world.producer), receivers, hooks, options.openRate),
    hooks,
    undefined,
    { warmupMs: 0, measureMs: options.measureMs },
  );
}

/**
 * Waits (at most `timeoutMs`, whatever the workers do) until no worker process holds any hook
 * (`hookline_worker_attached_hooks`). Only /metrics is read: counting sockets in /proc is slow with
 * thousands of them, and each sample is cut short at the deadline.
 */
export async function waitForDetach(fleet: WorkerFleet, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const samples = await Promise.race([fleet.sample(false), sleep(deadline - Date.now()).then(() => [])]);
    if (samples.length > 0 && samples.every((w) => w.attachedHooks === 0)) return true;
    await sleep(250);
  }
  return false;
}

/** Connections, commands/s and memory of each worker while nothing is published. */
export async function measureIdle(ctx: PhaseContext, configuredHooks: number): Promise<IdleResult> {
  ctx.progress(
    `idle: ${configuredHooks} hooks configured, watching Redis for ${ctx.options.idleMs / 1000} s`,
  );
  const { fleet, options } = ctx;
  const commands = await watchClients(
    options.redisUrl,
    () => fleet.redisClients(),
    fleet.pids,
    options.idleMs,
  );
  const samples = await fleet.sample();
  const result: IdleResult = {
    configuredHooks,
    seconds: options.idleMs / 1000,
    workers: samples.map((s, i) => ({
      pid: s.pid,
      attachedHooks: s.attachedHooks ?? 0,
      redisConnections: s.redisConnections ?? 0,
      ...(commands[i]?.perSecond !== undefined ? { commandsPerSecond: commands[i]!.perSecond } : {}),
      byCommand: commands[i]?.byCommand ?? {},
      rssMb: s.rssMb,
    })),
  };
  for (const w of result.workers)
    ctx.progress(
      `  worker ${w.pid}: ${w.redisConnections} connections, ${w.commandsPerSecond ?? '? (MONITOR did not start)'} commands/s, ${w.rssMb} MB`,
    );
  return result;
}
