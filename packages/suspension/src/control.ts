import type { Redis } from 'ioredis';
import {
  failureInWords,
  HooklineError,
  toDeliveryRecord,
  type DeliveryRecord,
  type EnableResult,
  type HeldChoice,
  type HookView,
  type LogSink,
  type Clock,
  systemClock,
} from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import { dropHeldEvents, expireOverCap } from './hold-cap';
import type { HookQueues } from '@hookline/redis';
import { resetStreak } from './streaks';
import { recordSuspension, type SuspensionStore } from './recording';
import { announce } from './notices';
import { probeHook, type ProbeDeps } from './probe';
import { takeEnablingLock } from './enabling';

export interface HookControlDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly hookQueues: HookQueues;
  readonly store: SuspensionStore;
  /** HOOKLINE_HOLD_MAX: applied when this suspends a hook, and to the events a re-enable delivers. */
  readonly holdMax: number;
  /** Tells the worker fleet the hook has events again (the scheduler's ready set). */
  readonly signalReady: (hookId: string) => Promise<void>;
  readonly clock?: Clock;
  readonly log?: LogSink;
  /** The delivery deadline (HOOKLINE_DELIVERY_TIMEOUT_MS; 15 s by default): a probe's, which a re-enable waits for. */
  readonly deadlineMs?: number;
  /** Sends a probe before a re-enable that asks for one (the HTTP tier's deliverer); without it, no probes. */
  readonly probe?: Pick<
    ProbeDeps,
    'attempt' | 'eventTypeHeader' | 'userAgent' | 'oauthToken' | 'tracing' | 'propagateTrace'
  >;
}

/**
 * Manual suspension and re-enable of a hook, the same for the API, the website and Bull Board. The queue's
 * paused flag is the state; each change flips it atomically first, so when two people (or an admin and the
 * monitor) act at once only one change is recorded and the other call sees the result.
 */
const withoutChange = (hook: HookView | undefined): EnableResult | undefined =>
  hook && { hook, changed: false };

/** What a re-enable may take besides its probe (held events discarded or counted): its lock outlasts both. */
const ENABLE_WORK_MS = 45_000;

/** `admin:<user>`: an admin acting in Bull Board. */
const isAdmin = (actor: string | undefined) => actor?.startsWith('admin:') === true;
/** The customer, signed in or through a portal link (the operator's key and admins are not). */
const isCustomer = (actor: string) => actor.startsWith('customer:') || actor.startsWith('portal:');

export class HookControl {
  private readonly clock: Clock;

  constructor(private readonly deps: HookControlDeps) {
    this.clock = deps.clock ?? systemClock;
  }

  /**
   * Re-enables a suspended hook. Held events are delivered in order (`deliver`), recorded `discarded` and
   * dropped (`discard`), or, with `{since}`, those accepted before that time are discarded and the rest
   * delivered in order (one accepted exactly at it is delivered). Enabling an active hook changes nothing.
   * Undefined: not this account's hook.
   */
  async enable(
    accountId: string,
    hookId: string,
    held: HeldChoice,
    actor: string,
    options: { readonly probe?: boolean } = {},
  ): Promise<EnableResult | undefined> {
    const { redis, keys, store } = this.deps;
    const hook = await store.hooks.get(accountId, hookId);
    if (!hook || hook.state === 'active') return hook && { hook, changed: false };
    // A pause an admin made in Bull Board is theirs to lift: the customer reads its reason, and cannot undo it.
    if (isAdmin((await store.hooks.suspension(accountId, hookId))?.by) && isCustomer(actor))
      throw new HooklineError(
        'CONFLICT',
        'An administrator paused this hook; only an administrator can resume it. Ask your provider’s support',
      );
    // One re-enable at a time (enabling.ts): a second one waits, then finds the hook as the first left it.
    const lock = await takeEnablingLock(
      redis,
      keys,
      hookId,
      (this.deps.deadlineMs ?? 15_000) + ENABLE_WORK_MS,
    );
    try {
      const now = await store.hooks.get(accountId, hookId);
      if (!now || now.state === 'active') return now && { hook: now, changed: false };
      return await this.enableHeld(accountId, hookId, held, actor, options);
    } finally {
      await lock.release();
    }
  }

  /** The re-enable itself, under the hook's re-enable lock. */
  private async enableHeld(
    accountId: string,
    hookId: string,
    held: HeldChoice,
    actor: string,
    options: { readonly probe?: boolean },
  ): Promise<EnableResult | undefined> {
    const { redis, keys, hookQueues, store } = this.deps;
    if (options.probe) await this.probe(hookId);

    // Discard while still paused, so no worker can take a held event in between.
    const dropDeps = { hookQueues, outbox: store.historyOutbox, clock: this.clock };
    const since = typeof held === 'object' ? held.since : undefined;
    const discarded =
      held === 'discard'
        ? await dropHeldEvents(
            dropDeps,
            hookId,
            0,
            'discarded',
            `discarded by ${actor} when the hook was re-enabled`,
          )
        : since
          ? await dropHeldEvents(
              dropDeps,
              hookId,
              0,
              'discarded',
              `discarded by ${actor} when the hook was re-enabled: accepted before ${since.toISOString()}`,
              since.getTime(),
            )
          : 0;
    // Never more than the cap goes out: a suspension the monitor has not recorded yet (it caps when it records)
    // may still hold every event queued before the pause. Nothing to drop when it is already capped.
    if (held !== 'discard') await expireOverCap(dropDeps, hookId, this.deps.holdMax);
    const queued = held === 'discard' ? 0 : await hookQueues.waitingCount(hookId);
    const now = this.clock();
    // A fresh streak before the flag goes: the first failure after the enable must count.
    await resetStreak(redis, keys, hookId, now.getTime());
    const resumed = await hookQueues.clearPaused(hookId);
    if (!resumed) return withoutChange(await store.hooks.get(accountId, hookId));
    // Workers learn of the held events from the ready set (signalReady, last), not from BullMQ's marker.
    await redis.srem(keys.suspendedHooks(), hookId);
    await store.hooks.clearSuspension(hookId);
    const events = (n: number) => `${n} held event${n === 1 ? '' : 's'}`;
    const detail =
      held === 'deliver'
        ? `re-enabled; ${events(queued)} queued for delivery, in order`
        : held === 'discard'
          ? `re-enabled; ${events(discarded)} discarded`
          : `re-enabled; ${events(discarded)} accepted before ${since!.toISOString()} discarded, ${queued} queued for delivery, in order`;
    await store.activity.append(accountId, {
      kind: 'hook.enabled',
      at: now.toISOString(),
      hook_id: hookId,
      actor,
      detail,
    });
    await announce(redis, keys, {
      kind: 'hook.enabled',
      accountId,
      hookId,
      at: now.toISOString(),
      reason: detail,
      actor,
      failures: [],
    });
    this.deps.log?.info({ hookId, accountId, actor, held, discarded, queued }, 'hook re-enabled');
    await this.deps.signalReady(hookId);
    const hook = await store.hooks.get(accountId, hookId);
    return hook && { hook, changed: true, discarded, queued };
  }

  /**
   * Test before re-enabling: one sample event, sent now while the hook stays suspended, recorded `probe`. Throws
   * PROBE_FAILED (with the attempt) unless the endpoint answered 2xx; the hook then stays suspended.
   */
  private async probe(hookId: string): Promise<void> {
    const { hookQueues, store } = this.deps;
    if (!this.deps.probe) throw new Error('this process cannot send probes (no deliverer was given)');
    // One request at a time per hook: the attempt in flight when the hook was suspended may not be over.
    const [backlog] = await hookQueues.backlogMany([hookId]);
    if ((backlog?.active ?? 0) > 0)
      throw new HooklineError(
        'CONFLICT',
        'An attempt to this hook is still in flight; try again in a few seconds',
      );
    const target = await store.hooks.target(hookId);
    if (!target) throw new HooklineError('NOT_FOUND', 'Hook not found');
    const record = await probeHook(
      { ...this.deps.probe, outbox: store.historyOutbox, clock: this.clock },
      target,
    );
    if (record.outcome !== 'delivered')
      throw new HooklineError(
        'PROBE_FAILED',
        `${
          record.status_code !== undefined
            ? `The endpoint did not accept the test event (HTTP ${record.status_code})`
            : `The test event was not delivered: ${failureInWords(record)}`
        }; the hook stays suspended and nothing held was sent`,
        undefined,
        { attempt: toDeliveryRecord(record) },
      );
  }

  /** Suspends a hook by hand (Bull Board's pause). True if this call suspended it. */
  async suspend(
    hookId: string,
    reason: string,
    actor: string,
    failures: readonly DeliveryRecord[] = [],
  ): Promise<boolean> {
    const { store } = this.deps;
    const target = await store.hooks.target(hookId);
    if (!target) return false;
    if (!(await this.deps.hookQueues.pauseOnce(hookId)))
      return this.holdForAdmin(target.accountId, hookId, reason, actor);
    await recordSuspension(this.deps, {
      hookId,
      accountId: target.accountId,
      at: this.clock(),
      reason,
      actor,
      failures,
    });
    return true;
  }

  /**
   * An admin's pause of a hook suspended by its failures: the suspension becomes the admin's, with their reason
   * (the customer can no longer lift it, as with any admin pause), its time and failures kept. True if it did.
   * Anyone else's pause of a suspended hook, or an admin's of one an admin holds, changes nothing.
   */
  private async holdForAdmin(
    accountId: string,
    hookId: string,
    reason: string,
    actor: string,
  ): Promise<boolean> {
    const { store } = this.deps;
    if (!isAdmin(actor)) return false;
    const current = await store.hooks.suspension(accountId, hookId);
    if (!current || isAdmin(current.by)) return false;
    await store.hooks.recordSuspension(hookId, { ...current, reason, by: actor });
    this.deps.log?.info({ hookId, accountId, actor, reason }, 'suspended hook held by an admin');
    return true;
  }
}
