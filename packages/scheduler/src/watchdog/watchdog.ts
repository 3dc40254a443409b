import type { Redis } from 'ioredis';
import { systemClock, type Clock } from '@hookline/core';
import {
  needsWorker,
  type HistoryOutbox,
  type HookBacklog,
  type HookQueues,
  type RedisKeys,
} from '@hookline/redis';
import { ENGINE_SCRIPTS } from '../scripts';
import {
  figuresFromHash,
  figuresToHash,
  refreshOldest,
  SweepTally,
  type FleetFigures,
} from './fleet-figures';
import { HookSweep, sweepBatch } from './hook-sweep';
import type { ReadySet } from '../ready-set';
import type { WorkerRoster } from '../worker-roster';
import { StuckTracker, type Sighting } from './stuck-tracker';
import { WorkIndex, type IndexedHook } from './work-index';

export interface StuckReport {
  readonly hookId: string;
  /** When the watchdog first saw it stuck. */
  readonly since: number;
  readonly backlog: HookBacklog;
}

export interface WatchdogDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly ready: Pick<ReadySet, 'signal' | 'status'>;
  readonly hookQueues: Pick<HookQueues, 'withJobs' | 'backlogMany'>;
  /** The history's outboxes: a hook with records and no marker (lost in a crash) is marked again. */
  readonly outbox: Pick<HistoryOutbox, 'nonEmpty' | 'markIfAbsent'>;
  /** Whether any worker is alive, to tell a hook waiting in the ready set for a busy fleet from one waiting for nobody. */
  readonly roster: Pick<WorkerRoster, 'anyAlive'>;
  /** This monitor's name: the holder of the watchdog's lock while it runs the watchdog. */
  readonly holder: string;
  readonly stuckAfterMs: number;
  /** How often `tick` is called: sizes each tick's batch and the lock's lease. */
  readonly tickMs: number;
  /** Told once per stuck hook across every monitor (the report index decides who tells). */
  readonly onReport: (report: StuckReport) => Promise<void>;
  readonly onWake?: (hookIds: readonly string[]) => void;
  readonly onRecovered?: (hookId: string) => void;
  readonly clock?: Clock;
}

/** Stuck hooks re-read from the report index per tick, so that a new lock holder follows those reported before. */
const REPORTED_READ = 100;

/**
 * Finds hooks with work and no worker on them (a lost ready signal: a worker killed between taking a hook from
 * the ready set and leasing it, a key removed by hand; or no worker alive at all) and wakes them; reports those
 * it cannot wake. It also gathers the fleet-wide backlog figures, and puts back history markers lost in a
 * crash. One monitor runs it at a time (a renewed lock); the others take over within a few ticks of its death.
 *
 * It walks the index of hooks with work (`WorkIndex`), not every hook: a pass over the index takes half the
 * stuck-after time (`sweepBatch`), so a stuck hook is seen, and woken, within 1.5 times it. Hooks found
 * without jobs and with an empty outbox leave the index; an idle fleet's index is empty, and a tick then costs
 * a handful of commands however many hooks exist. Once per taking of the lock, the monitor also walks every
 * hook (SSCAN, spread the same way) and adds those with jobs or unwritten history the index lacks: hooks from
 * before the index, or whose keys were changed by hand.
 */
export class Watchdog {
  private readonly clock: Clock;
  private readonly tracker: StuckTracker;
  private readonly sweep: HookSweep;
  private readonly index: WorkIndex;
  private readonly tally = new SweepTally();
  private figures?: FleetFigures;
  /** The figures last written to Redis. */
  private written?: FleetFigures;
  private holding = false;
  /** Whether this taking of the lock has walked every hook once (see the class comment). */
  private adopted = false;

  constructor(private readonly deps: WatchdogDeps) {
    this.clock = deps.clock ?? systemClock;
    this.tracker = new StuckTracker(deps.stuckAfterMs);
    this.sweep = new HookSweep(deps.redis, deps.keys);
    this.index = new WorkIndex(deps.redis, deps.keys);
  }

  /** One look at the next batch of hooks; false when another monitor runs the watchdog now. */
  async tick(): Promise<boolean> {
    if (!(await this.holdLock())) return false;
    const { redis, keys, ready, hookQueues } = this.deps;
    const { ids, versions, passEnded } = await this.nextBatch();
    const now = this.clock().getTime();
    for (const id of await redis.zrange(keys.stuckHooks(), 0, REPORTED_READ - 1))
      this.tracker.adoptReported(id, now);
    this.figures ??= figuresFromHash(await redis.hgetall(keys.fleetFigures()));

    // One EXISTS each rules out hooks without jobs before anything dearer is read.
    const withJobs = ids.length > 0 ? await hookQueues.withJobs(ids) : [];
    await this.tidy(ids, withJobs, versions);
    const worst = (this.figures?.oldest ?? []).map((w) => w.hookId);
    const look = [...new Set([...withJobs, ...this.tracker.watched(), ...worst])];
    const [statuses, backlogs] =
      look.length > 0 ? await Promise.all([ready.status(look), hookQueues.backlogMany(look)]) : [[], []];
    const backlogOf = new Map(look.map((id, i) => [id, backlogs[i]!]));
    const sightings = look.map((id, i): Sighting => {
      if (!needsWorker(backlogOf.get(id)!) || statuses[i] === 'leased') return 'served';
      return statuses[i] === 'signalled' ? 'signalled' : 'stuck';
    });
    // The ready set is a wait for a worker only while one is alive: with none, a hook there is as stuck as one
    // in neither place. The roster is read once, and only in a tick that finds a hook there.
    const noWorker = sightings.includes('signalled') && !(await this.deps.roster.anyAlive());
    await this.judge(
      look,
      noWorker ? sightings.map((s) => (s === 'signalled' ? 'stuck' : s)) : sightings,
      backlogOf,
    );

    for (const id of withJobs) this.tally.add(id, backlogOf.get(id)!);
    if (passEnded) this.figures = this.tally.finish(this.clock().getTime());
    else if (this.figures) this.figures = refreshOldest(this.figures, backlogOf);
    // Figures written when they change, and at least once per SWEEP_AGE_WRITE_MS while nothing changes (the
    // sweep age gauge reads `at`): an idle fleet writes a small hash now and then, not every second.
    if (this.figures && shouldWrite(this.written, this.figures)) {
      await redis.hset(keys.fleetFigures(), figuresToHash(this.figures));
      this.written = this.figures;
    }
    return true;
  }

  /** The next batch: of every hook until this lock taking has walked them all once, then of the index. */
  private async nextBatch(): Promise<{
    ids: string[];
    versions?: ReadonlyMap<string, string>;
    passEnded: boolean;
  }> {
    const { redis, keys, stuckAfterMs, tickMs } = this.deps;
    if (!this.adopted) {
      const total = await redis.scard(keys.allHooks());
      const { ids, sweepEnded } = await this.sweep.next(sweepBatch(total, stuckAfterMs, tickMs));
      if (sweepEnded) this.adopted = true;
      return { ids, passEnded: sweepEnded };
    }
    const total = await this.index.size();
    if (total === 0) return { ids: [], passEnded: true };
    const { hooks, passEnded } = await this.index.next(sweepBatch(total, stuckAfterMs, tickMs));
    return { ids: hooks.map((h) => h.hookId), versions: versionsOf(hooks), passEnded };
  }

  /**
   * Hooks without jobs: one whose outbox has records gets its history marker back if a crash lost it (and
   * stays in the index until they are written); the others leave the index, unless signalled since the batch
   * was read. On the walk over every hook, those with jobs or records join the index.
   */
  private async tidy(
    ids: readonly string[],
    withJobs: readonly string[],
    versions: ReadonlyMap<string, string> | undefined,
  ): Promise<void> {
    const { outbox } = this.deps;
    const jobs = new Set(withJobs);
    const noJobs = ids.filter((id) => !jobs.has(id));
    const records = noJobs.length > 0 ? await outbox.nonEmpty(noJobs) : [];
    await outbox.markIfAbsent(records);
    if (!versions) {
      await this.index.adopt([...withJobs, ...records], this.clock().getTime());
      return;
    }
    const busy = new Set(records);
    await this.index.forget(
      noJobs.filter((id) => !busy.has(id)).map((hookId) => ({ hookId, version: versions.get(hookId)! })),
    );
  }

  private async judge(
    look: readonly string[],
    sightings: readonly Sighting[],
    backlogOf: ReadonlyMap<string, HookBacklog>,
  ): Promise<void> {
    const { redis, keys } = this.deps;
    const now = this.clock().getTime();
    const wake: string[] = [];
    const reports: StuckReport[] = [];
    const recovered: string[] = [];
    for (const [i, hookId] of look.entries()) {
      const action = this.tracker.observe(hookId, sightings[i]!, now);
      if (action?.kind === 'wake') wake.push(hookId);
      if (action?.kind === 'report') {
        wake.push(hookId);
        reports.push({ hookId, since: action.since, backlog: backlogOf.get(hookId)! });
      }
      if (action?.kind === 'recovered') recovered.push(hookId);
    }
    if (wake.length > 0) {
      await this.deps.ready.signal(wake);
      this.deps.onWake?.(wake);
    }
    // ZADD NX and ZREM answer 1 to one caller only: a lock holder that lost the lock mid-tick, and the
    // monitor that took it over, never both report (or both announce the recovery of) the same hook.
    for (const report of reports)
      if ((await redis.zadd(keys.stuckHooks(), 'NX', now, report.hookId)) === 1)
        await this.deps.onReport(report);
    for (const hookId of recovered)
      if ((await redis.zrem(keys.stuckHooks(), hookId)) === 1) this.deps.onRecovered?.(hookId);
  }

  // A lease of a few ticks: a monitor that dies hands the watchdog over within that. One that loses the lock
  // forgets what it followed; the new holder re-reads the reported hooks and sweeps again.
  private async holdLock(): Promise<boolean> {
    const held = await this.lock(Math.max(5_000, 3 * this.deps.tickMs));
    if (!held && this.holding) {
      this.tracker.forgetAll();
      this.sweep.restart();
      this.index.restart();
      this.adopted = false;
      this.tally.finish(0);
      this.figures = undefined;
      this.written = undefined;
    }
    this.holding = held;
    return held;
  }

  /** Lets another monitor take the watchdog over at once (on SIGTERM). */
  async release(): Promise<void> {
    if (this.holding) await this.lock(0);
    this.holding = false;
  }

  private async lock(leaseMs: number): Promise<boolean> {
    const { redis, keys, holder } = this.deps;
    return Number(await ENGINE_SCRIPTS.lockHold.run(redis, [keys.watchdogLock()], [holder, leaseMs])) === 1;
  }
}

/** How long unchanged fleet figures go without being written again (the sweep age gauge reads their `at`). */
export const SWEEP_AGE_WRITE_MS = 10_000;

function shouldWrite(written: FleetFigures | undefined, after: FleetFigures): boolean {
  if (!written) return true;
  const before = written;
  const same =
    before.waiting === after.waiting && JSON.stringify(before.oldest) === JSON.stringify(after.oldest);
  return !same || after.at - before.at >= SWEEP_AGE_WRITE_MS || after.at < before.at;
}

function versionsOf(hooks: readonly IndexedHook[]): Map<string, string> {
  return new Map(hooks.map((h) => [h.hookId, h.version]));
}
