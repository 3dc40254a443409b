import type { Redis } from 'ioredis';
import { systemClock, type Clock } from '@hookline/core';
import { needsWorker, type HookBacklog, type HookQueues, type RedisKeys } from '@hookline/redis';
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
import { StuckTracker, type Sighting } from './stuck-tracker';

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
 * the ready set and leasing it, a key removed by hand) and wakes them; reports those it cannot wake. It also
 * gathers the fleet-wide backlog figures on the same sweep. One monitor runs it at a time (a renewed lock);
 * the others take over within a few ticks of its death.
 *
 * Cost per tick: SCARD, one SSCAN batch of `sweepBatch` hooks (100–5,000) and one EXISTS per hook in it
 * (pipelined); then, only for hooks with jobs, the hooks it follows (at most MAX_SUSPECTS, in practice a
 * handful) and the worst hooks (TOP_HOOKS): one scheduler script for them all (signalled, leased or neither) and one small script each (a
 * few O(1) reads on the hook's shard). Never a read of every hook at once: at 100,000 hooks a sweep is spread
 * over half the stuck-after time, 3,334 hooks a second by default. Measured (single Redis, 100,000 hooks,
 * 1,000 of them with jobs): about 6 ms of Redis CPU and 40 ms of the monitor's CPU per second, most of the
 * latter ioredis's cost per command; a longer HOOKLINE_STUCK_AFTER_MS makes it proportionally cheaper.
 */
export class Watchdog {
  private readonly clock: Clock;
  private readonly tracker: StuckTracker;
  private readonly sweep: HookSweep;
  private readonly tally = new SweepTally();
  private figures?: FleetFigures;
  private holding = false;

  constructor(private readonly deps: WatchdogDeps) {
    this.clock = deps.clock ?? systemClock;
    this.tracker = new StuckTracker(deps.stuckAfterMs);
    this.sweep = new HookSweep(deps.redis, deps.keys);
  }

  /** One look at the next batch of hooks; false when another monitor runs the watchdog now. */
  async tick(): Promise<boolean> {
    if (!(await this.holdLock())) return false;
    const { redis, keys, ready, hookQueues, stuckAfterMs, tickMs } = this.deps;
    const total = await redis.scard(keys.allHooks());
    const { ids, sweepEnded } = await this.sweep.next(sweepBatch(total, stuckAfterMs, tickMs));
    const now = this.clock().getTime();
    for (const id of await redis.zrange(keys.stuckHooks(), 0, REPORTED_READ - 1))
      this.tracker.adoptReported(id, now);
    this.figures ??= figuresFromHash(await redis.hgetall(keys.fleetFigures()));

    // Most hooks have no jobs at all: one EXISTS each rules them out before anything dearer is read.
    const withJobs = await hookQueues.withJobs(ids);
    const worst = (this.figures?.oldest ?? []).map((w) => w.hookId);
    const look = [...new Set([...withJobs, ...this.tracker.watched(), ...worst])];
    const [statuses, backlogs] = await Promise.all([ready.status(look), hookQueues.backlogMany(look)]);
    const backlogOf = new Map(look.map((id, i) => [id, backlogs[i]!]));
    const sightings = look.map((id, i): Sighting => {
      if (!needsWorker(backlogOf.get(id)!) || statuses[i] === 'leased') return 'served';
      return statuses[i] === 'signalled' ? 'signalled' : 'stuck';
    });
    await this.judge(look, sightings, backlogOf);

    for (const id of withJobs) this.tally.add(id, backlogOf.get(id)!);
    if (sweepEnded) this.figures = this.tally.finish(this.clock().getTime());
    else if (this.figures) this.figures = refreshOldest(this.figures, backlogOf);
    if (this.figures) await redis.hset(keys.fleetFigures(), figuresToHash(this.figures));
    return true;
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
      this.tally.finish(0);
      this.figures = undefined;
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
