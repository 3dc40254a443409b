import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { TurnBatch } from '@hookline/core';
import type { ActiveJob, HookQueues, JobOffer, PreparedTake } from '@hookline/redis';
import type { Logger, Metrics } from '@hookline/telemetry';
import type { ReadySet } from '../ready-set';
import type { WorkerRoster } from '../worker-roster';
import { Holding, LeaseClock, TakingTokens } from './holding';
import { dropStuckHoldings } from './stuck-holdings';
import type { BegunNext, DeliveryEnd, EgressWaiting, JobCompleting, JobSource } from './job-source';
import { ENGINE_TIMINGS, engineFigures, type ConsumerTimings } from '../timings';

export interface ConsumerDeps<B extends BegunNext = BegunNext> {
  /** For the blocking wait on the ready set only; every other command goes through `ready`, `jobs`, `queues`. */
  blocking: Redis;
  ready: ReadySet;
  jobs: JobSource;
  queues: Pick<HookQueues, 'needsWorker'>;
  /**
   * One job's delivery. It may complete the job itself with its outcome (`completing`, one round trip for
   * both), answering `finished`; or answer how the job ends, and the consumer finishes it. `begun`: the job's
   * attempt, begun by the script that took it (`takeAndBegin`, or the finish of the job before it: DeliveryEnd
   * `next`), on its first delivery only.
   */
  deliver: (job: ActiveJob, completing: JobCompleting, begun?: B) => Promise<DeliveryEnd<B>>;
  /**
   * Runs a prepared take in a script that also begins the attempt of the job it takes (`begun`, handed to
   * that job's delivery). Without it, a holding's first job is taken alone and its delivery begins it.
   */
  takeAndBegin?: (take: PreparedTake) => Promise<{ readonly jobReply: unknown; readonly begun?: B }>;
  /** How long an event the egress proxy kept from leaving waits before its next try, and who is told. */
  egress: EgressWaiting;
  holderId: string;
  /** Where the worker says it is alive, under `name` (host, pid and holder), for the monitor's metrics. */
  roster: Pick<WorkerRoster, 'beat' | 'leave'>;
  name: string;
  maxHooks: number;
  timings: ConsumerTimings;
  logger: Logger;
  metrics: Metrics;
}

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

  constructor(private readonly deps: ConsumerDeps<B>) {
    this.leases = new LeaseClock(deps.timings.leaseMs);
    this.tokens = new TakingTokens(deps.holderId);
    this.releases = new TurnBatch((hookIds) => deps.ready.release(hookIds, deps.holderId));
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

  /** Takes no new hooks or jobs; waits (up to `boundMs`) for the requests in flight, then gives hooks back. */
  async close(boundMs: number): Promise<void> {
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
    await Promise.race([settled, sleep(boundMs, undefined, { ref: false })]);
    // Off the roster, so that stopping a worker on purpose raises no "worker missing" alert. Bounded: with
    // Redis down the command would wait for it, and the entry is forgotten in time anyway.
    const left = this.deps.roster.leave(this.deps.name).catch(() => undefined);
    await Promise.race([left, sleep(1000, undefined, { ref: false })]);
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
    const drain = this.drain(holding)
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

  /**
   * Delivers the hook's queue in order while this holding may go on. True when it ended because the queue
   * had nothing to take (empty, or paused); false when it stopped with work possibly left (tenure over, a job
   * another holder still has locked, the hook lost, an error).
   */
  private async drain(holding: Holding): Promise<boolean> {
    const { jobs, deliver, timings, logger } = this.deps;
    // The next job's attempt, when the take or the finish that took it began it too.
    let { offer, begun } = await this.firstTake(holding);
    for (;;) {
      holding.stepped();
      if (offer.kind === 'none') return true;
      if (offer.kind === 'locked') {
        // Another holder's request may still be in flight (a process that froze with the job): its lock
        // expires on its own, and the job is taken over then.
        if (!this.mayContinue(holding)) return false;
        await sleep(Math.min(Math.max(offer.lockMsLeft, 50), timings.lockPollMs));
        offer = await jobs.take(holding.hookId, holding.nextToken());
        continue;
      }
      const job = offer.job;
      holding.current = job;
      this.countInFlight(+1);
      let end: DeliveryEnd<B>;
      // Whether a finish takes the next job is decided when the finish is made (or prepared for the outcome's
      // script): this holding may go on then.
      let fetchNext = false;
      const completing: JobCompleting = {
        prepare: (ending) => {
          holding.finishing = true;
          fetchNext = this.mayContinue(holding);
          const finish = jobs.prepareFinish(job, ending, fetchNext);
          // Asking for the next job, the holding ends if there is none: the same script may give the lease back.
          return fetchNext ? { ...finish, releaseFor: this.deps.holderId } : finish;
        },
      };
      try {
        const markedBefore = begun?.jobId === job.id ? begun : undefined;
        begun = undefined;
        end = await deliver(job, completing, markedBefore);
        // Before anything else is awaited: a claim of the hook from now on starts a new holding (serve).
        if (end.kind === 'finished' && end.leaseReleased) holding.released = true;
        // The job stays active under our lock (renewed while it is `current`) while it waits on the proxy.
        while (end.kind === 'not_sent' && (await this.waitOnEgress(holding, job, end))) {
          holding.stepped();
          end = await deliver(job, completing);
        }
        holding.stepped();
        if (end.kind === 'completed' || end.kind === 'failed' || end.kind === 'finished')
          await this.deps.egress.sent(holding.hookId);
      } finally {
        holding.current = undefined;
        holding.finishing = false;
        this.countInFlight(-1);
      }
      if (end.kind === 'not_sent') {
        // Stopped waiting (shutting down, the lease in doubt, or the slot is wanted by another hook): the job
        // stays at the head of the queue, unlocked, so the next holder takes it over at once and sends it.
        await jobs.unlock(job).catch(() => false);
        return false;
      }
      if (end.kind === 'withdrawn') {
        // Nothing left and the mark is gone: keeping the lock would hold the event back until the lock
        // expires (up to a whole lock, 25 s) for nothing. Let go of it (fenced: only while it is still ours)
        // and of the hook, which is signalled again: its next taking begins the event afresh.
        logger.info(
          { hookId: holding.hookId, jobId: job.id, why: end.why },
          'attempt taken back, nothing sent',
        );
        await jobs.unlock(job).catch(() => false);
        return false;
      }
      if (end.kind === 'lost') {
        // The job's lock is not ours: another holder has it, or (a failover) the new primary never had our
        // take and the job waits unlocked. The lease may still be ours, so the hook is let go like one with
        // work left (given back, re-checked, signalled) rather than held until its lease expires and is
        // reclaimed (≈15 s with no holder at all); a holder that has the job keeps it by its lock.
        logger.warn({ hookId: holding.hookId, jobId: job.id, why: end.why }, 'job lost to another holder');
        return false;
      }
      if (end.kind === 'finished' && end.again) {
        // Finished by an earlier send of the outcome's script, whose reply (naming the next job, if it took
        // one under this token) was lost: take finds that job by the token, as after a refused finish.
        logger.info(
          { hookId: holding.hookId, jobId: job.id },
          'job finished by an earlier send of its outcome',
        );
        if (!fetchNext) return false;
        offer = await this.takeOwnNext(holding, job);
        continue;
      }
      let next;
      try {
        if (end.kind === 'finished') {
          // Finished by the outcome's script: its reply names the next job taken under this token, if any.
          next = jobs.finished(job, end.jobReply);
          begun = end.next;
        } else {
          fetchNext = this.mayContinue(holding);
          next = await jobs.finish(job, end, fetchNext);
        }
      } catch (error) {
        // Refused: the job is no longer active under this token. Usually our client resent the call after a
        // reconnect and the first one had finished the job (and taken the next under the same token: take
        // finds it by that token). Or the lock had expired, and the job is whoever holds it now.
        logger.info({ err: error, hookId: holding.hookId, jobId: job.id }, 'finishing a job was refused');
        if (!fetchNext) return false;
        offer = await this.takeOwnNext(holding, job);
        continue;
      }
      if (!next) return fetchNext; // asked for the next job and there was none: the queue ran empty
      offer = { kind: 'job', job: next };
    }
  }

  /**
   * The next job a finish took under this holding's token when its reply was lost: found again by the token
   * (job-adopt.lua's same caller). It is this holding's as if the reply had arrived, so it is taken whether or
   * not the holding may still go on, as the reply's next job would be delivered: the finish's script may have
   * marked it too, and a marked job left behind waits out its lock and is recorded `unknown`, never sent (a
   * failover, whose untrusted leases stop holdings, lost accepted events that way). Asked for while the
   * holding may go on (`fetchNext`) only; a finish that took nothing leaves nothing to find.
   */
  private takeOwnNext(holding: Holding, finished: ActiveJob): Promise<JobOffer> {
    return this.deps.jobs.take(holding.hookId, finished.token);
  }

  /**
   * A holding's first take, with the attempt of the job it takes begun in the same script when the delivery
   * gives one (`takeAndBegin`). When that call fails its script may still have run, the job then active under
   * this token, and marked: a take under the same token finds it (job-adopt.lua's same caller), and its
   * delivery's own begin is the same holder asking again, told to send.
   */
  private async firstTake(holding: Holding): Promise<{ offer: JobOffer; begun?: B | undefined }> {
    const { jobs, takeAndBegin, logger } = this.deps;
    const token = holding.nextToken();
    if (!takeAndBegin) return { offer: await jobs.take(holding.hookId, token) };
    const take = jobs.prepareTake(holding.hookId, token);
    try {
      const { jobReply, begun } = await takeAndBegin(take);
      return { offer: await jobs.taken(take, jobReply), begun };
    } catch (error) {
      logger.info({ err: error, hookId: holding.hookId }, 'taking a job failed; taking again by its token');
      return { offer: await jobs.take(holding.hookId, token) };
    }
  }

  /** Waits before the next try of an event the egress proxy kept back; false when this holding must stop. */
  private async waitOnEgress(
    holding: Holding,
    job: ActiveJob,
    end: Extract<DeliveryEnd, { kind: 'not_sent' }>,
  ): Promise<boolean> {
    const delayMs = await this.deps.egress.notSent(holding.hookId, job.id, end.result);
    if (!this.mayContinue(holding)) return false;
    await sleep(delayMs, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    return this.mayContinue(holding);
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
