import { newId } from '@hookline/core';
import { createRedis, HookJobAdder, HookQueues, type RedisKeys } from '@hookline/redis';
import { engineFigures } from '@hookline/scheduler';
import {
  DEDUPE_TTL_MS,
  DELIVER_JOB,
  KEEP_COMPLETED,
  KEEP_FAILED,
  type DeliverJobData,
} from '@hookline/queue';
import type { Redis } from 'ioredis';
import { nowMicros, sleep } from '../clock';
import { FIXED_RATES } from '../rate-rows';
import type { BullmqAlone, BullmqAtRate, PhaseResult } from '../results';
import { BullmqHost } from '../system/bullmq-host-process';
import { usageProbe } from '../system/usage-probe';
import { benchEventData } from './bench-event';
import type { LoadTally } from './hookline-load';
import type { WindowTiming } from './measure';
import { runOpenLoop } from './open-loop';

// BullMQ alone: hookline's queues and jobs moved the way hookline moves them — BullMQ's add script, then
// moveToActive and moveToFinished fetching the next job, all through BullMQ's queue backend — with nothing
// else around them (no inbox, ready set, leases, attempt ledger, HTTP request or history; a no-op in their
// place). What BullMQ's own scripts cost per job on hookline's path is a floor under every hookline figure, so
// these rows bound what hookline can reach on this machine.

export interface BullmqAloneContext {
  readonly redisUrl: string;
  readonly redisPort: number;
  readonly keys: RedisKeys;
  /** For the usage probe only. */
  readonly redis: Redis;
  readonly timing: WindowTiming;
  /** Queues of the add + process measurement: as many as the phase's active hooks. */
  readonly queues: number;
  /** Jobs kept outstanding per queue in the add + process measurement. */
  readonly window: number;
  readonly drainTimeoutMs: number;
  readonly progress: (line: string) => void;
}

// The job lock a worker takes with the default 15 s deadline (the engine's timing table).
const LOCK_MS = engineFigures(15_000).lockMs;
// Pre-added jobs per second of warm-up + window: well above what one queue drains here, so the queue does
// not run dry (`ranDry` says if it did).
const PRE_ADDED_PER_SECOND = 4000;
const ADD_BULK_CHUNK = 1000;

interface BenchQueue {
  /** Its place in the host's list, by which completions and signals name it. */
  readonly index: number;
  readonly accountId: string;
  readonly hookId: string;
}

/** A job as hookline's fan-out adds it (packages/queue/src/inbox/fan-out.ts): same data shape, same options. */
function deliverJob(q: BenchQueue) {
  const acceptedAt = Date.now();
  const id = newId('evt', acceptedAt);
  const data: DeliverJobData = {
    accountId: q.accountId,
    hookId: q.hookId,
    event: {
      id,
      type: 'call_created',
      fields: { EventType: 'call_created', ...benchEventData(nowMicros()) },
    },
    acceptedAt,
  };
  return {
    name: DELIVER_JOB,
    data,
    opts: {
      jobId: id,
      deduplication: { id, ttl: DEDUPE_TTL_MS },
      attempts: 1,
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    },
  };
}

/** Queues set up as hook queues are (HookQueues.setUp: global concurrency 1). */
async function openQueues(hookQueues: HookQueues, count: number): Promise<BenchQueue[]> {
  const queues = Array.from({ length: count }, (_, index) => ({
    index,
    hookId: newId('hk'),
    accountId: newId('acct'),
  }));
  for (let i = 0; i < queues.length; i += 50)
    await Promise.all(queues.slice(i, i + 50).map((q) => hookQueues.setUp(q.hookId)));
  return queues;
}

async function addJob(adder: HookJobAdder, q: BenchQueue): Promise<string> {
  const { name, data, opts } = deliverJob(q);
  return (await adder.add(q.hookId, name, data, opts)).id;
}

function startHost(ctx: BullmqAloneContext, queues: readonly BenchQueue[]): Promise<BullmqHost> {
  return BullmqHost.start(
    {
      redisUrl: ctx.redisUrl,
      prefix: ctx.keys.prefix,
      hookIds: queues.map((q) => q.hookId),
      lockDurationMs: LOCK_MS,
    },
    ctx.redisPort,
  );
}

/** Like measureWindow, but counting jobs the host completed instead of requests the receivers timed. */
async function measureJobs(ctx: BullmqAloneContext, host: BullmqHost): Promise<PhaseResult> {
  const probe = usageProbe(ctx.redis, host);
  await sleep(ctx.timing.warmupMs);
  const from = nowMicros();
  const before = host.completed;
  const mark = await probe.begin();
  await sleep(ctx.timing.measureMs);
  const to = nowMicros();
  const jobs = host.completed - before;
  const seconds = (to - from) / 1e6;
  const usage = await probe.end(mark, jobs, seconds);
  return {
    perSecond: Math.round(jobs / seconds),
    hangingReceipts: 0,
    seconds: Math.round(seconds * 100) / 100,
    usage,
  };
}

async function oneQueue(
  ctx: BullmqAloneContext,
  connection: Redis,
): Promise<Pick<BullmqAlone, 'addBulk' | 'oneQueue'>> {
  const hookQueues = new HookQueues(connection, ctx.keys);
  const adder = new HookJobAdder(connection, ctx.keys);
  const q = (await openQueues(hookQueues, 1))[0]!;
  const jobs = Math.round((PRE_ADDED_PER_SECOND * (ctx.timing.warmupMs + ctx.timing.measureMs)) / 1000);
  ctx.progress(`BullMQ alone: ${jobs} jobs added into one queue through BullMQ's add script`);
  const probe = usageProbe(ctx.redis);
  const from = nowMicros();
  const mark = await probe.begin();
  for (let added = 0; added < jobs; added += ADD_BULK_CHUNK)
    await Promise.all(Array.from({ length: Math.min(ADD_BULK_CHUNK, jobs - added) }, () => addJob(adder, q)));
  const seconds = (nowMicros() - from) / 1e6;
  const addBulk = {
    perSecond: Math.round(jobs / seconds),
    hangingReceipts: 0,
    seconds: Math.round(seconds * 100) / 100,
    usage: await probe.end(mark, jobs, seconds),
    jobs,
  };
  ctx.progress(`  ${addBulk.perSecond} jobs/s added`);

  ctx.progress('BullMQ alone: one queue, taken and finished one job at a time (no-op)');
  const host = await startHost(ctx, [q]);
  try {
    const window = await measureJobs(ctx, host);
    const ranDry = host.completed >= jobs;
    ctx.progress(`  ${window.perSecond} jobs/s${ranDry ? ' (the queue ran dry: the figure is low)' : ''}`);
    return { addBulk, oneQueue: { ...window, jobs, ranDry } };
  } finally {
    await host.stop();
    const queue = hookQueues.open(q.hookId);
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

async function manyQueues(ctx: BullmqAloneContext, connection: Redis): Promise<BullmqAlone['manyQueues']> {
  ctx.progress(
    `BullMQ alone: ${ctx.queues} queues, added and drained through BullMQ's scripts, ${ctx.window} outstanding per queue`,
  );
  const queues = await openQueues(new HookQueues(connection, ctx.keys), ctx.queues);
  const host = await startHost(ctx, queues);
  const adder = new HookJobAdder(connection, ctx.keys);
  try {
    const loop = new AddLoop(adder, queues, host, ctx.window);
    const window = await measureJobs(ctx, host);
    const tally = await loop.finish(ctx.drainTimeoutMs);
    ctx.progress(
      `  ${window.perSecond} jobs/s` +
        (tally.undelivered > 0 ? `, ${tally.undelivered} not processed after drain` : '') +
        (tally.publishErrors > 0 ? `, ${tally.publishErrors} add errors (${tally.firstError})` : '') +
        (host.failure ? `; a Worker reported: ${host.failure}` : ''),
    );
    const atRates: BullmqAtRate[] = [];
    for (const rate of FIXED_RATES) {
      ctx.progress(
        `BullMQ alone: ${ctx.queues} queues, open loop at ${rate}/s (CPU per job against the maximum)`,
      );
      const phase = await atRate(ctx, adder, queues, host, rate);
      atRates.push({ rate, ...phase });
      ctx.progress(`  ${phase.perSecond} jobs/s`);
    }
    return { ...window, tally, queues: ctx.queues, window: ctx.window, atRates };
  } finally {
    await host.stop();
  }
}

/**
 * The same queues fed at a fixed rate, round robin, each job signalled once added: the reference for hookline's
 * "CPU per delivery at a fixed rate" rows, measured on the same machine in the same run.
 */
async function atRate(
  ctx: BullmqAloneContext,
  adder: HookJobAdder,
  queues: readonly BenchQueue[],
  host: BullmqHost,
  rate: number,
): Promise<PhaseResult> {
  let errors = 0;
  const loop = runOpenLoop(rate, (seq) => {
    const q = queues[seq % queues.length]!;
    addJob(adder, q).then(
      () => host.signal(q.index),
      () => (errors += 1),
    );
  });
  try {
    const window = await measureJobs(ctx, host);
    if (errors > 0) ctx.progress(`  ${errors} add errors`);
    return window;
  } finally {
    loop.stop();
    await loop.done;
  }
}

/** Closed loop over the queues: `window` jobs each to start with, and one more for each one completed. */
class AddLoop {
  private running = true;
  private added = 0;
  private pending = 0;
  private errors = 0;
  private firstError?: string;
  private readonly completedBefore: number;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly adder: HookJobAdder,
    queues: readonly BenchQueue[],
    private readonly host: BullmqHost,
    window: number,
  ) {
    this.completedBefore = host.completed;
    this.unsubscribe = host.onCompleted((index, count) => {
      if (this.running) for (let i = 0; i < count; i++) this.add(queues[index]!);
    });
    for (let i = 0; i < window; i++) for (const q of queues) this.add(q);
  }

  private add(q: BenchQueue): void {
    this.added += 1;
    this.pending += 1;
    addJob(this.adder, q).then(
      () => {
        this.pending -= 1;
        this.host.signal(q.index);
      },
      (error: unknown) => {
        this.pending -= 1;
        this.errors += 1;
        this.firstError ??= error instanceof Error ? error.message : String(error);
      },
    );
  }

  /** Stops adding and waits (up to `timeoutMs`) until every job added was processed. */
  async finish(timeoutMs: number): Promise<LoadTally> {
    this.running = false;
    this.unsubscribe();
    const start = Date.now();
    const processed = () => this.host.completed - this.completedBefore;
    while ((this.pending > 0 || processed() + this.errors < this.added) && Date.now() - start < timeoutMs)
      await sleep(50);
    return {
      published: this.added,
      received: processed(),
      publishErrors: this.errors,
      ...(this.firstError !== undefined ? { firstError: this.firstError } : {}),
      undelivered: Math.max(0, this.added - this.errors - processed()),
      drainMs: Date.now() - start,
    };
  }
}

/**
 * Both measurements, before hookline's workers start (nothing else then uses the CPUs). The host runs in a
 * child process; the jobs are added from the bench process, on a connection of their own.
 */
export async function bullmqAlone(ctx: BullmqAloneContext): Promise<BullmqAlone> {
  const connection = createRedis(ctx.redisUrl);
  try {
    return { ...(await oneQueue(ctx, connection)), manyQueues: await manyQueues(ctx, connection) };
  } finally {
    connection.disconnect();
  }
}
