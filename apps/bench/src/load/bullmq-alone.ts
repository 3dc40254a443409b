import { newId } from '@hookline/core';
import { type RedisKeys } from '@hookline/redis';
import { createRedis } from '@hookline/redis';
import { EVENTS_MAX_LEN } from '@hookline/redis';
import {
  DEDUPE_TTL_MS,
  DELIVER_JOB,
  KEEP_COMPLETED,
  KEEP_FAILED,
  type DeliverJobData,
} from '@hookline/queue';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { nowMicros, sleep } from '../clock';
import type { BullmqAlone, PhaseResult } from '../results';
import { BullmqHost } from '../system/bullmq-host-process';
import { usageProbe } from '../system/usage-probe';
import { benchEventData } from './bench-event';
import type { LoadTally } from './hookline-load';
import type { WindowTiming } from './measure';

// BullMQ alone: hookline's queues, jobs and Worker options with nothing else around them (no hookline
// producer, store, scheduler or HTTP request; a no-op processor). What BullMQ's own scripts cost per job is a
// floor under every hookline figure, so these rows bound what hookline can reach on this machine.

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

// As apps/worker/src/hook-attachments.ts creates its Workers (DEFAULT_TIMINGS; it does not export them).
const WORKER_OPTIONS = { lockDurationMs: 10_000, stalledIntervalMs: 5_000, maxStalledCount: 10 } as const;
// Pre-added jobs per second of warm-up + window: well above the ~2,700/s one Worker manages here, so the
// queue does not run dry (`ranDry` says if it did).
const PRE_ADDED_PER_SECOND = 4000;
const ADD_BULK_CHUNK = 1000;

interface BenchQueue {
  readonly queue: Queue<DeliverJobData>;
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

/** Queues named and configured as hook queues (HookQueues.open + setUp), sharing one producer connection. */
async function openQueues(keys: RedisKeys, connection: Redis, count: number): Promise<BenchQueue[]> {
  const queues = Array.from({ length: count }, () => {
    const hookId = newId('hk');
    const queue = new Queue<DeliverJobData>(keys.hookQueueName(hookId), {
      connection,
      prefix: keys.prefix,
      streams: { events: { maxLen: EVENTS_MAX_LEN } },
    });
    queue.on('error', () => undefined);
    return { queue, hookId, accountId: newId('acct') };
  });
  for (let i = 0; i < queues.length; i += 50)
    await Promise.all(queues.slice(i, i + 50).map((q) => q.queue.setGlobalConcurrency(1)));
  return queues;
}

function startHost(ctx: BullmqAloneContext, queues: readonly BenchQueue[]): Promise<BullmqHost> {
  return BullmqHost.start(
    {
      redisUrl: ctx.redisUrl,
      prefix: ctx.keys.prefix,
      queueNames: queues.map((q) => q.queue.name),
      ...WORKER_OPTIONS,
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
  const q = (await openQueues(ctx.keys, connection, 1))[0]!;
  const jobs = Math.round((PRE_ADDED_PER_SECOND * (ctx.timing.warmupMs + ctx.timing.measureMs)) / 1000);
  ctx.progress(`BullMQ alone: addBulk of ${jobs} jobs into one queue`);
  const probe = usageProbe(ctx.redis);
  const from = nowMicros();
  const mark = await probe.begin();
  for (let added = 0; added < jobs; added += ADD_BULK_CHUNK)
    await q.queue.addBulk(
      Array.from({ length: Math.min(ADD_BULK_CHUNK, jobs - added) }, () => deliverJob(q)),
    );
  const seconds = (nowMicros() - from) / 1e6;
  const addBulk = {
    perSecond: Math.round(jobs / seconds),
    hangingReceipts: 0,
    seconds: Math.round(seconds * 100) / 100,
    usage: await probe.end(mark, jobs, seconds),
    jobs,
  };
  ctx.progress(`  ${addBulk.perSecond} jobs/s added`);

  ctx.progress('BullMQ alone: one queue, one Worker (concurrency 1, no-op), one job at a time');
  const host = await startHost(ctx, [q]);
  try {
    const window = await measureJobs(ctx, host);
    const ranDry = host.completed >= jobs;
    ctx.progress(`  ${window.perSecond} jobs/s${ranDry ? ' (the queue ran dry: the figure is low)' : ''}`);
    return { addBulk, oneQueue: { ...window, jobs, ranDry } };
  } finally {
    await host.stop();
    await q.queue.obliterate({ force: true });
    await q.queue.close();
  }
}

async function manyQueues(ctx: BullmqAloneContext, connection: Redis): Promise<BullmqAlone['manyQueues']> {
  ctx.progress(
    `BullMQ alone: ${ctx.queues} queues, one no-op Worker each, Queue.add with ${ctx.window} outstanding per queue`,
  );
  const queues = await openQueues(ctx.keys, connection, ctx.queues);
  const host = await startHost(ctx, queues);
  try {
    const loop = new AddLoop(queues, host, ctx.window);
    const window = await measureJobs(ctx, host);
    const tally = await loop.finish(ctx.drainTimeoutMs);
    ctx.progress(
      `  ${window.perSecond} jobs/s` +
        (tally.undelivered > 0 ? `, ${tally.undelivered} not processed after drain` : '') +
        (tally.publishErrors > 0 ? `, ${tally.publishErrors} add errors (${tally.firstError})` : '') +
        (host.failure ? `; a Worker reported: ${host.failure}` : ''),
    );
    return { ...window, tally, queues: ctx.queues, window: ctx.window };
  } finally {
    await host.stop();
    await Promise.all(queues.map((q) => q.queue.close()));
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
    const { name, data, opts } = deliverJob(q);
    this.added += 1;
    this.pending += 1;
    q.queue.add(name, data, opts).then(
      () => (this.pending -= 1),
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
 * Both measurements, before hookline's workers start (nothing else then uses the CPUs). The Workers run in a
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
