import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { TurnBatch } from '@hookline/core';
import type { ConsumerDeps } from './consumer-deps';
import { HoldingDrain } from './drain';
import { Holding, LeaseClock, TakingTokens } from './holding';
import { dropStuckHoldings } from './stuck-holdings';
import type { BegunNext } from './job-source';
import { ENGINE_TIMINGS, engineFigures } from '../timings';

export type { ConsumerDeps } from './consumer-deps';

/**
 * Serves hook queues through a fixed set of connections, whatever the number of hooks: claims hooks from the
 * ready set (with a lease), delivers each one's queue in order until it is empty, and gives the lease back.
 * A quiet hook and a busy one cost the same per delivery: nothing is set up when a hook wakes.
 */
export class HookConsumer<B extends BegunNext = BegunNext> {
  private readonly held = new Map<string, Holding>();
  private readonly drains = new Set<Promise<void>>();
  private readonly leases: LeaseClock;
  private readonly tokens: TakingTokens;
  private running = false;
  private loop?: Promise<void>;
  private timers: NodeJS.Timeout[] = [];
  private slotFreed?: () => void;
  /** Ends the waits of events held back by the egress proxy when the consumer stops. */
  private readonly stopping = new AbortController();
  private inFlight = 0;
  // Hooks whose queues ran empty in the same turn give their leases back in one script (quiet hooks do this
  // once per event).
  private readonly releases: TurnBatch<string, boolean>;
  private readonly drainer: HoldingDrain<B>;

  constructor(private readonly deps: ConsumerDeps<B>) {
    this.leases = new LeaseClock(deps.timings.leaseMs);
    this.tokens = new TakingTokens(deps.holderId);
    this.releases = new TurnBatch((hookIds) => deps.ready.release(hookIds, deps.holderId));
    this.drainer = new HoldingDrain(deps, {
      mayContinue: (holding) => this.mayContinue(holding),
      countInFlight: (change) => this.countInFlight(change),
      stopping: this.stopping.signal,
    });
  }

  get count(): number {
    return this.held.size;
  }

  start(): void {
    const { jobs, timings } = this.deps;
    // The deadline does not move these figures once the lock is given.
    const figures = engineFigures(0, timings, jobs.lockMs);
    this.running = true;
    this.loop = this.claimLoop();
    this.every(figures.renewEveryMs, () => this.renewLeases());
    // As often as the leases: a worker that stops renewing them stops beating too.
    this.every(figures.renewEveryMs, () => this.deps.roster.beat(this.deps.name));
    this.deps.roster.beat(this.deps.name).catch(() => undefined);
    this.every(figures.reclaimEveryMs, () => this.deps.ready.reclaimExpired());
    this.every(figures.lockExtendEveryMs, () => this.renewLocks());
  }

  /**
   * Takes no new hooks or jobs; waits (up to `boundMs`) for the requests in flight, then gives hooks back.
   * Resolves the hooks whose work did not finish in time (their outcomes may not be recorded: a frozen Redis).
   */
  async close(boundMs: number): Promise<string[]> {
    this.running = false;
    this.stopping.abort();
    for (const t of this.timers) clearInterval(t);
    this.slotFreed?.();
    this.deps.blocking.disconnect();
    // The claim loop serves what a claim in flight returns even after `running` turned false: the loop first,
    // then every drain, those it started last included. A drain left behind would be cut off by the process's
    // exit between its attempt mark and its request, and the event recorded `unknown`, never sent.
    const settled = (async () => {
      await this.loop?.catch(() => undefined);
      await Promise.all(this.drains).catch(() => undefined);
    })();
    const finished = await Promise.race([settled.then(() => true), sleep(boundMs, false, { ref: false })]);
    const unfinished = finished ? [] : [...this.held.keys()];
    // Off the roster, so that stopping a worker on purpose raises no "worker missing" alert. Bounded: with
    // Redis down the command would wait for it, and the entry is forgotten in time anyway.
    const left = this.deps.roster.leave(this.deps.name).catch(() => undefined);
    await Promise.race([left, sleep(1000, undefined, { ref: false })]);
    return unfinished;
  }

  private every(ms: number, task: () => Promise<unknown>): void {
    this.timers.push(
      setInterval(() => {
        task().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'worker housekeeping failed'));
      }, ms),
    );
  }

  private async claimLoop(): Promise<void> {
    const { ready, blocking, maxHooks, timings, holderId, logger } = this.deps;
    while (this.running) {
      const room = maxHooks - this.held.size;
      if (room <= 0) {
        await new Promise<void>((resolve) => (this.slotFreed = resolve));
        continue;
      }
      try {
        const first = await ready.waitForOne(blocking, ENGINE_TIMINGS.readyWaitMs / 1000);
        if (!this.running || !this.leases.trusted()) {
          if (first) await ready.signal([first]);
          if (this.running) await sleep(100); // stalled: renew the leases before taking more hooks
          continue;
        }
        if (!first) continue; // the set stayed empty all the wait: nothing to claim
        const claimed = await ready.claim([first], room, timings.leaseMs, holderId);
        for (const hookId of claimed) this.serve(hookId);
      } catch (error) {
        if (!this.running) return;
        logger.warn({ err: error }, 'claiming ready hooks failed; retrying');
        await sleep(500);
      }
    }
  }

  private serve(hookId: string): void {
    const ending = this.held.get(hookId);
    if (ending && !ending.released) {
      // A claim while this process holds the hook: a resent claim that found its own live lease, or a holding
      // whose outcome's script gave the lease back (its reply lost, or not yet read) and the hook was signalled
      // and claimed since. The lease is this process's either way: served once the holding ends (letGo).
      ending.claimedAgain = true;
      return;
    }
    const holding = new Holding(hookId, this.tokens);
    this.held.set(hookId, holding);
    this.deps.metrics.heldHooks.set(this.held.size);
    const drain = this.drainer
      .drain(holding)
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error, hookId }, 'delivering to a hook failed');
        return false;
      })
      .then((ranEmpty) => this.letGo(holding, ranEmpty));
    this.drains.add(drain);
    void drain.finally(() => this.drains.delete(drain));
  }

  /** True while this holding may take another job: running, its lease trusted, its tenure not over. */
  private mayContinue(holding: Holding): boolean {
    if (!this.running || holding.lost || !this.leases.trusted()) return false;
    const full = this.held.size >= this.deps.maxHooks;
    return !full || holding.heldForMs() < this.deps.timings.tenureMs;
  }

  private countInFlight(change: number): void {
    this.inFlight += change;
    this.deps.metrics.attemptsInFlight.set(this.inFlight);
  }

  private async letGo(holding: Holding, ranEmpty: boolean): Promise<void> {
    const { ready, queues, logger } = this.deps;
    logger.debug({ hookId: holding.hookId, lost: holding.lostBecause }, 'letting a hook go');
    // Out of `held` first: once the lease is released this process may claim the hook again at once (its own
    // re-signal below), and that claim must start a new holding, not find this one on its way out. A holding
    // dropped as stuck (dropStuck) may end long after a new one took its place: that one stays.
    const current = this.held.get(holding.hookId) === holding;
    if (current) this.held.delete(holding.hookId);
    this.deps.metrics.heldHooks.set(this.held.size);
    if (current && holding.claimedAgain && this.running) {
      // Claimed again by this process while ending: the lease is this process's, and the claim's signal is
      // answered by a new holding, which reads the queue afresh.
      this.serve(holding.hookId);
      this.slotFreed?.();
      return;
    }
    try {
      // An event that arrived after the queue was seen empty signalled a live lease: releasing puts such a
      // hook back into the ready set by itself. A holding that stopped with work possibly left re-checks the
      // queue after letting go (whatever release answers: a resent release finds the lease gone already).
      // Only the process's current holding of the hook: a release names the process, not the holding. A lost
      // holding gives it back too (its job lock found gone by an extension, its lease at renewal): the script
      // releases only a lease still this process's, and one kept would hold the hook until it expired.
      if (current && !holding.released) {
        await this.releases.add(holding.hookId);
        if (!ranEmpty && (await queues.needsWorker(holding.hookId))) await ready.signal([holding.hookId]);
      }
    } catch (error) {
      // The lease expires on its own and any process puts the hook back in the ready set.
      logger.warn({ err: error, hookId: holding.hookId }, 'giving a hook back failed');
    } finally {
      this.slotFreed?.();
    }
  }

  // The script renews only leases that are still this process's and unexpired; the others are lost (after a
  // stall, another process may hold them now) and their holdings stop taking jobs. A holding whose lease its
  // outcome's script gave back has none to renew.
  private async renewLeases(): Promise<void> {
    this.dropStuck();
    const sentAt = performance.now();
    const { ready, timings, holderId } = this.deps;
    const leased = [...this.held.values()].filter((h) => !h.released).map((h) => h.hookId);
    const lost = await ready.renew(leased, timings.leaseMs, holderId);
    this.leases.renewed(sentAt);
    if (lost.length > 0) this.deps.logger.warn({ hooks: lost }, 'leases found lost at renewal');
    for (const hookId of lost) {
      const holding = this.held.get(hookId);
      if (holding) holding.lose("its lease was no longer this process's at renewal");
    }
  }

  /** Holdings whose step never ended give their hooks up (stuck-holdings.ts). */
  private dropStuck(): void {
    const stuckAfterMs = this.deps.jobs.lockMs * ENGINE_TIMINGS.stuckStepLocks;
    if (dropStuckHoldings(this.held, stuckAfterMs, this.deps.logger) === 0) return;
    this.deps.metrics.heldHooks.set(this.held.size);
    this.slotFreed?.();
  }

  // Locks outlast a request's deadline, so renewing them only matters when Redis or this process is slow.
  private async renewLocks(): Promise<void> {
    const current = [...this.held.values()].filter((h) => h.current);
    await Promise.all(
      current.map(async (holding) => {
        const job = holding.current;
        // Still extended while the outcome's script completes the job (it may be tried again for seconds), but
        // a lock that is gone then went with the completion.
        if (job && !(await this.deps.jobs.extendLock(job)) && holding.current === job && !holding.finishing)
          holding.lose("its job lock was no longer this process's");
      }),
    );
  }
}
