import type { JobJson, JobsOptions, RedisQueueBackend } from 'bullmq';
import type { Redis } from 'ioredis';
import { hookQueueLayout } from './layout';
import { HookBackends } from './backends';
import { EVENTS_MAX_LEN } from './hook-queues';
import { ADD_STANDARD_JOB, STALE_FANOUT_REPLY, StaleFanOutError } from './fenced-add';
import { BULLMQ_SCRIPTS } from './scripts';
import type { RedisKeys } from '../keys';
import { runConfirmed } from '../replica-acks';

/** The options hookline gives its jobs: a job id, BullMQ's deduplication, no retries, bounded finished sets. */
export type NewJobOptions = Pick<JobsOptions, 'attempts' | 'removeOnComplete' | 'removeOnFail'> & {
  readonly jobId: string;
  readonly deduplication: { readonly id: string; readonly ttl: number };
};

/** A job added: its id, and, for a fenced add, whether its queue is paused (the hook holds its events). */
export interface AddedJob {
  readonly id: string;
  readonly paused?: boolean;
}

/** A fan-out's fence: when it read its inbox entry (ms, Redis server time) and how old that may be at the add. */
export interface AddFence {
  readonly readAt: number;
  readonly staleMs: number;
  /**
   * Signal the hook in the add's own script (see scripts/fenced-add.lua): one Redis only, where the scheduler's
   * keys and the hook's can be written by one script (on a Redis Cluster they live on different shards).
   */
  readonly signal?: boolean;
}

/**
 * An add prepared for a script of the caller's (the accept's, on one Redis): BullMQ's addStandardJob keys and
 * arguments for the hook's queue, built by BullMQ as for its own script.
 */
export interface PreparedAdd {
  readonly hookId: string;
  /** addStandardJob's nine keys. */
  readonly keys: readonly string[];
  /** addStandardJob's three arguments (packed arguments, job data, packed options). */
  readonly args: readonly (string | Buffer)[];
  /** The job's deduplication key: a script that knows the event can never be added again may shorten its life. */
  readonly deduplicationKey: string;
  /** The queue's meta hash, whose PAUSED_FIELD says the queue is paused (the hook holds its events). */
  readonly metaKey: string;
  /**
   * The write of the queue's meta sent before the caller's script (when this process had not written it lately):
   * on the same connection, it reaches Redis first; wait for it with the script.
   */
  readonly metaWritten?: Promise<unknown>;
  /** Gives BullMQ what the script answered for this add (the job id, or its error code) and resolves with the id. */
  answered(reply: string | number): Promise<string>;
}

// Queues this process has written the events-stream length into lately (forgotten wholesale past the bound);
// the others get it with their add.
const META_REMEMBERED = 10_000;

/**
 * Adds jobs to hook queues with BullMQ's own add script, through the queue backend, without a Queue handle:
 * a handle costs an INFO (BullMQ's version check) and a meta write on opening, and a producer fanning out to
 * many quiet hooks would open one for nearly every event. The job is stored exactly as `Queue.add` stores it
 * (a test compares the two field by field).
 */
export class HookJobAdder {
  private readonly backends: HookBackends;
  private readonly metaWritten = new Set<string>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {
    this.backends = new HookBackends(redis, keys);
  }

  /**
   * With a fence, the add is refused (StaleFanOutError, nothing added) once the read it rests on is older than
   * `fence.staleMs` by the hook's Redis server clock (see scripts/fenced-add.lua), signals the hook when
   * `fence.signal`, and, on a client that requires replica acknowledgements, throws unless the replicas have
   * it (the signal with it).
   */
  async add(
    hookId: string,
    name: string,
    data: unknown,
    opts: NewJobOptions,
    fence?: AddFence,
  ): Promise<AddedJob> {
    // A Queue handle wrote the events-stream length into the meta on opening (see EVENTS_MAX_LEN), which
    // also shortens a queue made before the limit. Sent before the add on the same connection and slot, so
    // the add's own trim already uses it.
    const meta = this.writeMeta(hookId);
    const backend = this.backends.of(hookId);
    const job = jobJson(name, data, opts);
    const answer: { paused?: boolean } = {};
    const [id] = await Promise.all([
      fence
        ? backend.addJobToTransaction(this.fenced(hookId, fence, answer), job, opts.jobId)
        : backend.addJob(job, opts.jobId),
      meta,
    ]);
    return { id, ...answer };
  }

  /**
   * The add of `add`, for the caller's own script to run: BullMQ builds its keys and arguments as for its
   * script, and gets the script's answer through `answered`. The queue's meta is written first when this
   * process has not written it lately (sent now, so on the same connection it precedes the caller's script).
   */
  prepare(hookId: string, name: string, data: unknown, opts: NewJobOptions): PreparedAdd {
    const meta = this.writeMeta(hookId);
    let captured: { keys: string[]; args: (string | Buffer)[]; answer(reply: unknown): void } | undefined;
    const runCommand = (command: string, args: (string | Buffer)[]): Promise<unknown> => {
      const add = standardAdd(command, args, 'prepares');
      return new Promise((answer) => (captured = { ...add, answer }));
    };
    const client = { runCommand } as unknown as Parameters<RedisQueueBackend['addJobToTransaction']>[0];
    const id = this.backends.of(hookId).addJobToTransaction(client, jobJson(name, data, opts), opts.jobId);
    // BullMQ builds and runs its command before its first wait: anything else is a BullMQ this code does not know.
    if (!captured) throw new Error('BullMQ did not run addStandardJob at once; its add cannot be prepared');
    const { keys, args, answer } = captured;
    const layout = hookQueueLayout(this.keys, hookId);
    return {
      hookId,
      keys,
      args,
      ...(meta ? { metaWritten: meta } : {}),
      deduplicationKey: layout.deduplication(opts.deduplication.id),
      metaKey: layout.meta,
      answered: (reply) => {
        answer(reply);
        return id;
      },
    };
  }

  private writeMeta(hookId: string): Promise<unknown> | undefined {
    if (this.metaWritten.has(hookId)) return undefined;
    return this.redis
      .hset(hookQueueLayout(this.keys, hookId).meta, 'opts.maxLenEvents', EVENTS_MAX_LEN)
      .then(() => {
        if (this.metaWritten.size >= META_REMEMBERED) this.metaWritten.clear();
        this.metaWritten.add(hookId);
      });
  }

  /**
   * Gives the deduplication key of `id` in the hook's queue `ms` more to live, when it has longer (never
   * lengthens it, never creates it).
   */
  async shortenDeduplication(hookId: string, id: string, ms: number): Promise<void> {
    await this.redis.pexpire(hookQueueLayout(this.keys, hookId).deduplication(id), ms, 'LT');
  }

  /**
   * The client BullMQ's backend runs its add through: BullMQ builds the keys and arguments of addStandardJob
   * as usual (and checks its reply), and the fenced script runs in its place with the fence's two arguments
   * after BullMQ's. Any other script is refused: hookline adds standard jobs only. BullMQ gets the job id (or
   * its error code) as its own script answers; the paused flag beside it goes to `answer`.
   */
  private fenced(
    hookId: string,
    fence: AddFence,
    answer: { paused?: boolean },
  ): Parameters<RedisQueueBackend['addJobToTransaction']>[0] {
    const runCommand = async (command: string, args: (string | Buffer)[]): Promise<unknown> => {
      const add = standardAdd(command, args, 'fences');
      const keys = add.keys;
      const argv = [...add.args, fence.readAt, fence.staleMs] as (string | number)[];
      if (fence.signal) {
        if (this.redis.isCluster) throw new Error("a Redis Cluster cannot signal a hook in its add's script");
        keys.push(...this.keys.signalKeys());
        argv.push(Date.now(), hookId);
      }
      // On the replicas before the add counts as done (HOOKLINE_REDIS_REPLICA_ACKS; see replica-acks.ts): not
      // acknowledged, the fan-out fails, and its entry stays for the retry or recovery to add again.
      const reply = await runConfirmed(this.redis, BULLMQ_SCRIPTS.fencedAdd, keys, argv);
      if (reply === STALE_FANOUT_REPLY) throw new StaleFanOutError(hookId, fence.staleMs);
      if (!Array.isArray(reply)) return reply;
      const [id, paused] = reply as [string, number];
      answer.paused = paused === 1;
      return id;
    };
    return { runCommand } as unknown as Parameters<RedisQueueBackend['addJobToTransaction']>[0];
  }
}

/**
 * BullMQ's command, split into addStandardJob's keys and arguments; any other script is refused, since hookline
 * adds standard jobs only (what it does with them, `doing`, goes into the error).
 */
function standardAdd(command: string, args: (string | Buffer)[], doing: string) {
  const [script] = command.split(':');
  if (script !== ADD_STANDARD_JOB.name || args.length !== ADD_STANDARD_JOB.keys + 3)
    throw new Error(
      `BullMQ ran ${command} with ${args.length} arguments; hookline ${doing} addStandardJob only`,
    );
  return { keys: args.slice(0, ADD_STANDARD_JOB.keys) as string[], args: args.slice(ADD_STANDARD_JOB.keys) };
}

/** What BullMQ's `Job.create` hands the backend for these options (its constructor's defaults, `asJSON`). */
function jobJson(name: string, data: unknown, opts: NewJobOptions): JobJson {
  return {
    id: opts.jobId,
    name,
    data: JSON.stringify(data ?? {}),
    opts: { attempts: 0, ...opts },
    progress: 0,
    attemptsMade: 0,
    attemptsStarted: 0,
    stalledCounter: 0,
    timestamp: Date.now(),
    failedReason: JSON.stringify(null),
    stacktrace: JSON.stringify(null),
    returnvalue: JSON.stringify(null),
    deduplicationId: opts.deduplication.id,
  };
}
