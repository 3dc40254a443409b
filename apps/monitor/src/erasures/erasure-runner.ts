import { NO_COUNTS, runOnBeat, type AuditEntry, type ErasureCounts } from '@hookline/core';
import type { RedisErasures } from '@hookline/store';
import type { Logger } from '@hookline/telemetry';
import {
  countFenceErased,
  eraseActiveJobs,
  eraseDatabase,
  eraseHookRecords,
  eraseIdempotency,
  eraseInbox,
  eraseOutboxes,
  eraseQueued,
  eraseRetained,
  type StepDeps,
  type StepInput,
  type StepResult,
} from './erasure-steps';

// Runs accepted erasures to the end, each under a lease so that two monitors never run the same one and a
// monitor killed mid-way is taken over (by itself after a restart, or another) once the lease lapses.
// Progress is the number of steps done, written with the counts after each step. An account's erasures run
// one after another, in the order they were accepted (only its oldest running one may be taken, by any
// monitor); different accounts' run side by side, up to MAX_AT_ONCE per monitor, so that one account's
// erasures, each waiting out `settleMs`, never hold up another's.
//
// The order matters. The fence (tags in every hook, set when the erasure was accepted) already stops any
// new request of a matching event. Then: the inbox first, so recovery fans nothing out that the queue step
// would miss; the queues (waiting, held); BullMQ's finished jobs; the outboxes; the database. Deliveries that
// were on the wire when the erasure was accepted finish within the delivery deadline and their records land
// in the outboxes and the database a little later: after `settleMs` the same places are gone through once
// more. Then the fence stays up until no hook has an active job of a matching event (a live holder records
// it, or dies and its lock lapses, and the job is removed), and what such a job's outcome wrote is gone
// through again: a job left active would otherwise keep the event's fields, and be sent by the worker that
// takes it over once the fence is down. Then the events the fence refused, which workers recorded `erased`
// meanwhile (countFenceErased says how they reach this erasure's count). Then the idempotency keys and hook
// records, which need the ids of every event erased. (New steps go before those two: an erasure resumed from
// an older list skips nothing.)
type Step = (d: StepDeps, s: StepInput) => Promise<StepResult>;
/** Erasures one monitor runs at once (of as many accounts): most of an erasure's time is its settle wait. */
export const MAX_AT_ONCE = 8;
/** How many running erasures a pass looks at, oldest first: enough to reach past one account's long list. */
const LOOK_AT = 1000;
const SETTLE = 'settle' as const;
const ACTIVE_GONE = 'active-gone' as const;
export const STEPS: readonly (Step | typeof SETTLE | typeof ACTIVE_GONE)[] = [
  eraseInbox,
  eraseQueued,
  eraseRetained,
  eraseOutboxes,
  eraseDatabase,
  SETTLE,
  eraseInbox,
  eraseQueued,
  eraseRetained,
  eraseOutboxes,
  eraseDatabase,
  ACTIVE_GONE,
  eraseOutboxes,
  eraseDatabase,
  countFenceErased,
  eraseIdempotency,
  eraseHookRecords,
];

export interface ErasureRunnerDeps extends StepDeps {
  readonly erasures: Pick<
    RedisErasures,
    | 'running'
    | 'tagsOf'
    | 'lease'
    | 'release'
    | 'work'
    | 'progress'
    | 'addEvents'
    | 'finish'
    | 'unclosed'
    | 'closeDone'
    | 'events'
    | 'cleanSuspensionFailures'
  >;
  /** Writes an audit entry (the `erasure.done` one): to the audit log's outbox, and its JSON log line. */
  readonly audit: (entry: AuditEntry) => Promise<unknown>;
  readonly holder: string;
  readonly log: Logger;
  /** How long deliveries begun before the fence may still record (the delivery deadline and the writer's lag). */
  readonly settleMs: number;
  readonly leaseMs?: number;
  readonly pollMs?: number;
  /** How often the fence's last step looks again at a matching job a live worker holds. */
  readonly activePollMs?: number;
}

export interface RunningErasures {
  close(): Promise<void>;
}

export function startErasureRunner(deps: ErasureRunnerDeps): RunningErasures {
  const leaseMs = deps.leaseMs ?? 15_000;
  let closed = false;

  // A done erasure leaves the queue once its audit entry is written. A runner killed between the two leaves
  // it to the next, which writes the same entry (same id: the audit log keeps one) and closes it.
  const close = async (accountId: string, erasureId: string): Promise<void> => {
    const unclosed = await deps.erasures.unclosed(accountId, erasureId);
    if (!unclosed) return;
    if (unclosed.audit) await deps.audit(unclosed.audit);
    await deps.erasures.closeDone(accountId, erasureId);
  };

  const runOne = async (accountId: string, erasureId: string): Promise<void> => {
    const work = await deps.erasures.work(accountId, erasureId);
    if (!work) return close(accountId, erasureId);
    const input: StepInput = { accountId, erasureId, target: work.target };
    const counts: ErasureCounts = { ...NO_COUNTS, ...work.view.counts };
    deps.log.info({ erasureId, accountId, step: work.step }, 'erasure running');
    for (let step = work.step; step < STEPS.length; step += 1) {
      if (closed) return;
      if (!(await deps.erasures.lease(erasureId, deps.holder, leaseMs))) return;
      const run = STEPS[step]!;
      const renew = () => deps.erasures.lease(erasureId, deps.holder, leaseMs);
      if (run === SETTLE) await sleepUnlessClosed(deps.settleMs, () => closed, leaseMs / 3, renew);
      else if (run === ACTIVE_GONE)
        for (;;) {
          const result = await eraseActiveJobs(deps, input);
          await deps.erasures.addEvents(accountId, erasureId, result.eventIds);
          counts.queued += result.count;
          if (result.held === 0 || closed) break;
          await sleepUnlessClosed(deps.activePollMs ?? 500, () => closed, leaseMs / 3, renew);
        }
      else {
        const result = await run(deps, input);
        await deps.erasures.addEvents(accountId, erasureId, result.eventIds);
        counts[result.place] += result.count;
      }
      if (closed) return;
      await deps.erasures.progress(accountId, erasureId, step + 1, counts);
    }
    await deps.erasures.finish(accountId, erasureId, work.target, counts);
    await close(accountId, erasureId);
    await deps.erasures.release(erasureId, deps.holder);
    deps.log.info({ erasureId, accountId, counts }, 'erasure done');
  };

  // The erasure each account has running here; a pass starts the next of an account once its run ended.
  const inFlight = new Map<string, Promise<void>>();
  const pass = async () => {
    const looked = new Set<string>();
    for (const { accountId, id } of await deps.erasures.running(LOOK_AT)) {
      if (closed || inFlight.size >= MAX_AT_ONCE) return;
      // Only the account's oldest: the later ones wait for it, whichever monitor runs it.
      if (looked.has(accountId)) continue;
      looked.add(accountId);
      if (inFlight.has(accountId) || !(await deps.erasures.lease(id, deps.holder, leaseMs))) continue;
      const run = runOne(accountId, id)
        .catch((error: unknown) =>
          deps.log.error({ err: error, erasureId: id, accountId }, 'erasure step failed; retrying'),
        )
        .finally(() => inFlight.delete(accountId));
      inFlight.set(accountId, run);
    }
  };
  // On the process's beat, with the monitor's other once-a-second loops (core/beat.ts).
  const passes = runOnBeat(deps.pollMs ?? 1000, pass, (error) =>
    deps.log.error({ err: error }, 'erasure pass failed; retrying'),
  );

  return {
    async close() {
      closed = true;
      passes.leave();
      await passes.inFlight();
      await Promise.all(inFlight.values());
    },
  };
}

/** Waits `ms` in slices, renewing the lease between them, and stops early when the runner closes. */
async function sleepUnlessClosed(
  ms: number,
  closed: () => boolean,
  sliceMs: number,
  renew: () => Promise<unknown>,
): Promise<void> {
  const until = Date.now() + ms;
  while (!closed() && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(sliceMs, until - Date.now(), 200)));
    await renew();
  }
}
