import { mkdir, mkdtemp } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { deletePrefix } from './delete-prefix';
import { dropBenchSchema } from './history/drop-schema';
import { bullmqAlone } from './load/bullmq-alone';
import { closedLoopCeiling, openLoopCeiling } from './load/ceiling';
import { ClosedLoop, viaProducer } from './load/hookline-load';
import { maxHooksPerWorker, type BenchOptions } from './options';
import {
  coldStart,
  hooklinePhase,
  HTTP_WARMUP_MS,
  httpPhase,
  loadCase,
  measureIdle,
  quietCase,
  timingOf,
  waitForDetach,
  type PhaseContext,
} from './phases';
import { rateRows } from './rate-rows';
import { Receivers } from './receivers/receivers';
import { REPO_ROOT } from './repo-root';
import type { BenchResults } from './results';
import { createActiveHooks, createIdleHooks, createWorld } from './setup';
import { inSeries, ratio } from './stats';
import { stopBullmqHosts } from './system/bullmq-host-process';
import { measureHttpFloor } from './system/http-floor';
import { HttpTier, stopHttpTiers } from './system/http-tier';
import { settleMemory } from './system/memory-settle';
import { readProfiles, summarizeProfiles } from './system/profile-summary';
import { usageProbe } from './system/usage-probe';
import { chooseWorkerEntry } from './system/worker-entry';
import { WorkerFleet } from './system/worker-fleet';
import { checkTargets } from './targets';
import { wholeStackPhase } from './whole-stack';

/** The rate at which the HTTP tier's CPU per accepted event is measured (its target is at this rate). */
const HTTP_TIER_RATE = 500;

/**
 * The whole benchmark, in the order that keeps it short: the ceiling and BullMQ alone first (no workers
 * running), then hookline with 1 and 1,000 active hooks, then 99,000 more hooks configured (20,000 of them
 * quiet) and the busy hooks again, with and without hanging hooks, then through the HTTP API, then the quiet
 * hooks, and last the idle fleet. Everything it creates is removed at the end, also on failure.
 */
export async function runBench(
  options: BenchOptions,
  progress: (line: string) => void,
  onCleanup: (cleanup: () => Promise<void>) => void,
): Promise<BenchResults> {
  const began = Date.now();
  const loadAverageAtStart = Math.round(loadavg()[0]! * 100) / 100;
  const world = createWorld(options.redisUrl);
  // The monitor writes the delivery history there, as in production.
  const historySchema = `bench_${world.prefix.replace(/[^a-z0-9]/g, '_')}`;
  const receivers = await Receivers.start(options.receiverServers);
  let fleet: WorkerFleet | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanup = () =>
    (cleaned ??= (async () => {
      await fleet?.stop().catch(() => undefined);
      await stopHttpTiers().catch(() => undefined);
      await stopBullmqHosts().catch(() => undefined);
      await world.producer.close().catch(() => undefined);
      await receivers.close().catch(() => undefined);
      progress(`removing the keys under ${world.prefix}`);
      await deletePrefix(world.redis, world.prefix).catch(() => undefined);
      await dropBenchSchema(options.databaseUrl, historySchema).catch(() => undefined);
      world.redis.disconnect();
      world.producerRedis.disconnect();
    })());
  onCleanup(cleanup);
  try {
    const redisPort = new URL(options.redisUrl).port ? Number(new URL(options.redisUrl).port) : 6379;
    const step = (line: string) => progress(`[${Math.round((Date.now() - began) / 1000)} s] ${line}`);
    step(`prefix ${world.prefix}: creating ${options.activeHooks} accounts with one hook each`);
    const active = await createActiveHooks(world, receivers, options.activeHooks, options.createConcurrency);
    const indices = active.map((h) => h.index);
    const ceilingTiming = { warmupMs: 1000, measureMs: options.ceilingMs };
    const probe = usageProbe(world.redis);

    step('ceiling: undici, 1 stream');
    const oneStream = await closedLoopCeiling(receivers, [0], ceilingTiming, probe);
    step(`ceiling: undici, ${indices.length} streams`);
    const manyStreams = {
      ...(await closedLoopCeiling(receivers, indices, ceilingTiming, probe)),
      streams: indices.length,
    };
    step(`ceiling: undici, open loop at ${options.openRate}/s`);
    const ceilingAtRate = await openLoopCeiling(receivers, indices, options.openRate, ceilingTiming, probe);

    const bullmq = await bullmqAlone({
      redisUrl: options.redisUrl,
      redisPort,
      keys: world.keys,
      redis: world.redis,
      timing: timingOf(options),
      queues: indices.length,
      window: options.manyHooksWindow,
      drainTimeoutMs: options.drainTimeoutMs,
      progress: step,
    });
    const boundPerSecond = Math.round(inSeries(oneStream.perSecond, bullmq.oneQueue.perSecond));
    const oneHookBound = {
      perSecond: boundPerSecond,
      ratioToCeiling: ratio(boundPerSecond, oneStream.perSecond) ?? 0,
    };
    step(`  bound for one hook: ${boundPerSecond}/s, ${oneHookBound.ratioToCeiling} of the ceiling`);

    const entry = chooseWorkerEntry(options.workerMode);
    const maxHooks = maxHooksPerWorker(options);
    const artifacts = join(REPO_ROOT, 'artifacts', 'bench');
    await mkdir(artifacts, { recursive: true });
    const profileDir = options.profile ? await mkdtemp(join(artifacts, 'profile-')) : undefined;
    step(`starting ${options.workers} worker processes (${entry.why}), ${maxHooks} hooks each at most`);
    const shared = {
      REDIS_URL: options.redisUrl,
      HOOKLINE_QUEUE_PREFIX: world.prefix,
      HOOKLINE_SECRET_KEY: world.secretKeyHex,
      DATABASE_URL: options.databaseUrl,
      HOOKLINE_DATABASE_SCHEMA: historySchema,
      LOG_LEVEL: 'info',
    };
    fleet = await WorkerFleet.start(
      entry,
      options.workers,
      {
        ...shared,
        HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8',
        HOOKLINE_METRICS_PORT: '0',
        HOOKLINE_DELIVERY_TIMEOUT_MS: String(options.deadlineMs),
        HOOKLINE_WORKER_MAX_HOOKS: String(maxHooks),
      },
      redisPort,
      profileDir,
    );
    const ctx: PhaseContext = { options, world, receivers, fleet, progress: step };
    const beforeTraffic = await measureIdle(ctx, options.activeHooks);

    const publish = viaProducer(world.producer);
    const single = active.slice(0, 1);
    const oneHookUnloaded = await hooklinePhase(
      ctx,
      'one hook, one event at a time',
      () => new ClosedLoop(publish, receivers, single, 1),
      single,
    );
    const oneHook = await hooklinePhase(
      ctx,
      `one hook, ${options.singleHookWindow} outstanding`,
      () => new ClosedLoop(publish, receivers, single, options.singleHookWindow),
      single,
    );
    if (!(await waitForDetach(fleet, 30_000))) step('  some hooks are still attached after 30 s');
    const coldStartResult = await coldStart(ctx, active);
    const activeCase = await loadCase(
      ctx,
      `${options.activeHooks} of ${options.activeHooks}`,
      active,
      options.activeHooks,
    );

    // The quiet hooks are among the configured ones: they get nothing until the quiet phases, at the end.
    step(`creating ${options.quietHooks} quiet hooks, each on an account of its own`);
    const quietStarted = Date.now();
    const quiet = await createActiveHooks(world, receivers, options.quietHooks, options.createConcurrency, {
      firstIndex: options.activeHooks,
      kind: 'quiet',
    });
    step(`  ${Math.round(options.quietHooks / ((Date.now() - quietStarted) / 1000))} accounts + hooks/s`);
    const idleCount = options.configuredHooks - options.activeHooks - options.quietHooks;
    step(`creating ${idleCount} more hooks (store.hooks.create, ${options.createConcurrency} at a time)`);
    const idleHookCreation = await createIdleHooks(
      world,
      receivers,
      idleCount,
      options.idleHooksPerAccount,
      options.createConcurrency,
    );
    step(`  ${idleHookCreation.perSecond} hooks/s`);
    const configuredCase = await loadCase(
      ctx,
      `${options.activeHooks} of ${options.configuredHooks}`,
      active,
      options.configuredHooks,
    );
    const hangingHooks = indices.filter((i) => i % Math.round(1 / options.hangingShare) === 0);
    const hangingCase = await loadCase(
      ctx,
      `${options.activeHooks} of ${options.configuredHooks}, ${hangingHooks.length} hanging`,
      active,
      options.configuredHooks,
      { hooks: hangingHooks },
    );
    step('starting the HTTP tier (apps/hookline http-main, a process of its own)');
    const tier = await HttpTier.start(
      entry,
      { ...shared, HOOKLINE_HTTP_DRAIN_MS: '1000' },
      redisPort,
      join(artifacts, 'http-tier.log'),
    );
    // The tier's own cost at 500/s (its target), then every process together at 1,000/s (issue 28).
    const { httpResult, wholeStack } = await (async () => {
      const measured = await httpPhase(ctx, tier, active, options.configuredHooks, HTTP_TIER_RATE);
      return { httpResult: measured, wholeStack: await wholeStackPhase(ctx, tier, active) };
    })().finally(() => tier.stop());
    step(
      `the HTTP floor at ${HTTP_TIER_RATE}/s: the same requests answered by Fastify after one Redis command`,
    );
    const floor = await measureHttpFloor({
      entry,
      env: shared,
      redisPort,
      artifacts,
      hooks: active,
      rate: HTTP_TIER_RATE,
      warmupMs: Math.max(options.warmupMs, HTTP_WARMUP_MS),
      measureMs: options.measureMs,
    });
    step(
      `  ${floor.cpuMicrosPerAccepted ?? '-'} µs CPU per 202 (${floor.accepted} in the window, ${floor.errors} errors)`,
    );

    // Last of the traffic: on a worker that cannot keep up with the quiet shape, what it leaves behind after
    // the drain would otherwise land in the phases that follow.
    const quietResult = await quietCase(ctx, quiet, options.configuredHooks);
    const fixedRates = await rateRows(ctx, [
      { shape: 'busy', hooks: active, atMaximum: configuredCase.throughput },
      { shape: 'quiet', hooks: quiet, atMaximum: quietResult.throughput },
    ]);
    step('waiting for the workers to let go of every hook');
    if (!(await waitForDetach(fleet, 30_000))) step('  some hooks are still attached after 30 s');
    const afterTraffic = await measureIdle(ctx, options.configuredHooks);
    step(
      "waiting for the workers' memory to settle (a full collection by V8, then 3 s without one; 90 s at most)",
    );
    const running = fleet;
    const settled = await settleMemory(() => running.sample(false));
    for (const w of settled)
      step(
        `  worker ${w.pid}: ${w.rssMbAfterTraffic} MB after traffic, ${w.rssMb} MB ${w.settled ? 'settled' : 'NOT settled'} after ${Math.round(w.waitedMs / 1000)} s`,
      );

    await fleet.stop();
    const profile = profileDir ? summarizeProfiles(await readProfiles(profileDir)) : undefined;
    if (profileDir) step(`CPU profiles of the workers: ${profileDir}`);

    const figures: Omit<BenchResults, 'targets' | 'profile'> = {
      meta: {
        startedAt: new Date(began).toISOString(),
        quick: options.quick,
        node: process.version,
        cpus: cpus().length,
        redisVersion: /redis_version:(\S+)/.exec(await world.redis.info('server'))?.[1] ?? '?',
        worker: entry.why,
        workers: options.workers,
        maxHooksPerWorker: maxHooks,
        deadlineMs: options.deadlineMs,
        drainTimeoutMs: options.drainTimeoutMs,
        loadAverageAtStart,
        openRate: options.openRate,
        quiet: { hooks: options.quietHooks, rate: options.quietRate, outstanding: options.quietOutstanding },
        windows: { singleHook: options.singleHookWindow, manyHooks: options.manyHooksWindow },
        timing: { ...timingOf(options), ceilingMs: options.ceilingMs },
        durationSeconds: Math.round((Date.now() - began) / 1000),
      },
      ceiling: { oneStream, manyStreams, atRate: ceilingAtRate },
      bullmq: { ...bullmq, oneHookBound },
      hookline: {
        oneHookUnloaded,
        coldStart: coldStartResult,
        oneHook,
        active: activeCase,
        configured: configuredCase,
        idleHookCreation,
      },
      hanging: { ...hangingCase, hangingHooks: hangingHooks.length },
      quiet: quietResult,
      http: { ...httpResult, floor },
      idle: { beforeTraffic, afterTraffic, settled },
      fixedRates,
      wholeStack,
    };
    return { ...figures, targets: checkTargets(figures), ...(profile ? { profile } : {}) };
  } finally {
    await cleanup();
  }
}
