import { setTimeout as sleep } from 'node:timers/promises';
import type { ActiveJob, JobOffer } from '@hookline/redis';
import { retryWrite } from '../write-retry';
import type { ConsumerDeps } from './consumer-deps';
import type { Holding } from './holding';
import type { BegunNext, DeliveryEnd, JobCompleting } from './job-source';

/** What a drain asks of the consumer that runs it. */
export interface DrainHost {
  /** True while the holding may take another job: the consumer running, its lease trusted, its tenure not over. */
  mayContinue(holding: Holding): boolean;
  countInFlight(change: number): void;
  /** Aborted when the consumer stops: ends the waits of events held back by the egress proxy. */
  readonly stopping: AbortSignal;
}

/**
 * One holding's turn at a hook: its jobs taken and delivered in order, each finished (or finished by its
 * outcome's script, which may take the next one), until the queue runs empty or the holding must stop. The
 * consumer (hook-consumer.ts) claims hooks, runs a drain for each and lets the hook go when it ends.
 */
export class HoldingDrain<B extends BegunNext = BegunNext> {
  constructor(
    private readonly deps: ConsumerDeps<B>,
    private readonly host: DrainHost,
  ) {}

  /**
   * Delivers the hook's queue in order while this holding may go on. True when it ended because the queue
   * had nothing to take (empty, or paused); false when it stopped with work possibly left (tenure over, a job
   * another holder still has locked, the hook lost, an error).
   */
  async drain(holding: Holding): Promise<boolean> {
    const { jobs, deliver, timings, logger } = this.deps;
    // The next job's attempt, when the take or the finish that took it began it too.
    let { offer, begun } = await this.firstTake(holding);
    for (;;) {
      holding.stepped();
      if (offer.kind === 'none') return true;
      if (offer.kind === 'locked') {
        // Another holder's request may still be in flight (a process that froze with the job): its lock
        // expires on its own, and the job is taken over then.
        if (!this.host.mayContinue(holding)) return false;
        await sleep(Math.min(Math.max(offer.lockMsLeft, 50), timings.lockPollMs));
        offer = await jobs.take(holding.hookId, holding.nextToken());
        continue;
      }
      const job = offer.job;
      holding.current = job;
      this.host.countInFlight(+1);
      let end: DeliveryEnd<B>;
      let waited: 'again' | 'suspended' | 'stop' | undefined;
      // Whether a finish takes the next job is decided when the finish is made (or prepared for the outcome's
      // script): this holding may go on then.
      let fetchNext = false;
      const completing: JobCompleting = {
        prepare: (ending) => {
          holding.finishing = true;
          fetchNext = this.host.mayContinue(holding);
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
        while (end.kind === 'not_sent' && (waited = await this.waitOnEgress(holding, job, end)) === 'again') {
          holding.stepped();
          end = await deliver(job, completing);
        }
        holding.stepped();
        if (end.kind === 'completed' || end.kind === 'failed' || end.kind === 'finished')
          await this.deps.egress.sent(holding.hookId);
      } finally {
        holding.current = undefined;
        holding.finishing = false;
        this.host.countInFlight(-1);
      }
      if (end.kind === 'not_sent') {
        // Stopped waiting (shutting down, the lease in doubt, the slot is wanted by another hook, or the hook
        // was suspended meanwhile): the job goes back to the head of the queue, never sent, so the next holder
        // takes it first and sends it as its first attempt — or, while the hook is paused, it is held.
        await jobs.requeue(job).catch(() => false);
        // The wait ends here only for a paused hook or a process that stops: a hook handed to another holder
        // (the slot is wanted, the lease in doubt) still waits, its backoff kept for when this process holds it
        // again, and its entry renewed by whoever meets the proxy's refusal next.
        if (waited === 'suspended' || this.host.stopping.aborted)
          await this.deps.egress.stoppedWaiting(holding.hookId).catch(() => undefined);
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
        // The job's lock is not ours: another holder has it, (a failover) the new primary never had our take and
        // the job waits unlocked, or the hook was deleted with its queue. The lease may still be ours, so the hook is let go like one with
        // work left (given back, re-checked, signalled) rather than held until its lease expires and is
        // reclaimed (≈15 s with no holder at all); a holder that has the job keeps it by its lock.
        logger.warn(
          { hookId: holding.hookId, jobId: job.id, why: end.why },
          'job no longer held by this worker',
        );
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
          fetchNext = this.host.mayContinue(holding);
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
    return this.takeByToken(holding, finished.token);
  }

  /**
   * A take by this holding's own token, for the job a lost reply may have handed it (and marked), tried again
   * while it fails for as long as a job lock from the first failure (write-retry.ts): the failover that lost the
   * reply usually refuses the next call too, for seconds, and given up at once the holding ended with that job
   * active and marked under its token, to be recorded `unknown` once its lock ran out, never sent (what an
   * outcome's write given up at once did before it was tried again the same way). Safe to repeat: the job already ours is handed back
   * (job-adopt.lua's same caller), and a job still waiting is taken under the token (moveToActive).
   */
  private takeByToken(holding: Holding, token: string): Promise<JobOffer> {
    const { jobs, logger } = this.deps;
    return retryWrite(
      () => jobs.take(holding.hookId, token),
      jobs.lockMs,
      (error, n) =>
        logger.warn({ err: error, hookId: holding.hookId, n }, 'taking a job by its token failed; retrying'),
    );
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
      return { offer: await this.takeByToken(holding, token) };
    }
  }

  /**
   * Waits before the next try of an event the egress proxy kept back: `again` to try, `suspended` when the hook was
   * paused meanwhile, `stop` when this holding must stop (the process stops, the slot is wanted, the lease in doubt).
   */
  private async waitOnEgress(
    holding: Holding,
    job: ActiveJob,
    end: Extract<DeliveryEnd, { kind: 'not_sent' }>,
  ): Promise<'again' | 'suspended' | 'stop'> {
    const delayMs = await this.deps.egress.notSent(holding.hookId, job.id, end.result);
    if (!this.host.mayContinue(holding)) return 'stop';
    await sleep(delayMs, undefined, { signal: this.host.stopping }).catch(() => undefined);
    if (!this.host.mayContinue(holding)) return 'stop';
    // Suspended meanwhile (an admin's pause, the monitor's suspension): the event was never sent, so it is held
    // like the events behind it and goes first on resume; trying again would send to a hook that gets nothing.
    // Asked only here, between tries the proxy refused, never per delivery. Unknown counts as paused.
    return (await this.deps.queues.isPaused(holding.hookId).catch(() => true)) ? 'suspended' : 'again';
  }
}
