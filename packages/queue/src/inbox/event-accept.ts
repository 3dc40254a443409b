import {
  HooklineError,
  Lru,
  type AttemptTrigger,
  type Clock,
  type DeliverableEvent,
  type ErasureTags,
  type LogSink,
  type PublishEventInput,
  type RequestKey,
  type TraceContext,
} from '@hookline/core';
import type { PreparedAdd } from '@hookline/redis';
import { fingerprint } from '../event-shape';
import type { AccountInbox } from './account-inbox';
import type { Acceptance, AcceptedAnswer, InboxEntry } from './inbox-entry';
import { AccountMarks } from './account-marks';
import type { EventToQueue, FanOut } from './fan-out';

export interface PublishResult {
  readonly id: string;
  readonly hooks: string[];
  /** True when this idempotency key was accepted before: the answer is the original one, nothing was enqueued. */
  readonly duplicate: boolean;
}

export interface AcceptOptions {
  readonly idempotencyKey: string | undefined;
  /** A request's Idempotency-Key instead (a test's): never with `idempotencyKey`. */
  readonly requestKey?: RequestKey;
  readonly hooks: readonly string[] | undefined;
  readonly trigger: AttemptTrigger | undefined;
  readonly trace: TraceContext | undefined;
}

/** What an idempotency key found by the accept answers, in the words of the key it is. */
interface KeyWords {
  /** The key was given with another request. */
  readonly conflict: string;
  /** The earlier answer cannot be read (an older version is writing it). */
  readonly unreadable: string;
}

const EVENT_ID: KeyWords = {
  conflict: 'An event with this id was accepted with a different body; use a new id for a different event',
  unreadable: 'An event with this id is still being accepted; retry',
};

const REQUEST_KEY: KeyWords = {
  conflict:
    'This Idempotency-Key was already used for a different request (another hook, attempt or body); use a new ' +
    'key for a new request',
  unreadable: 'A request with this Idempotency-Key is still being accepted; retry',
};

// A publish completes at most this many abandoned fan-outs of its account before its own; the monitor does
// the rest.
const MAX_ABANDONED_PER_PUBLISH = 10;
/**
 * Accounts and kinds whose hooks this process remembers from their last publish: the adds it prepares for the
 * accept's own script (one Redis). A publish of a kind not remembered, or whose hooks changed, fans out after
 * its accept, and the next one is prepared. Sized for a phone system's fleet, where most accounts are quiet
 * and come back after minutes, in turn: a cache smaller than the accounts publishing in turn forgets each one
 * just before its next publish, and then every publish pays the fan-out (4 Redis commands and ≈ 25 µs of
 * this process's CPU more; 20,000 accounts in turn with 10,000 remembered missed every time). An entry holds
 * ≈ 260 bytes of heap (measured: an account and kind with one hook), so 100,000 cost ≈ 26 MB at most, held
 * only once that many pairs have published through this process.
 */
const HOOKS_REMEMBERED = 100_000;

export interface EventAcceptDeps {
  readonly inbox: AccountInbox;
  readonly fanOut: FanOut;
  readonly clock: Clock;
  /** How long an idempotency key's answer is kept. */
  readonly ttlSeconds: number;
  /** How old an unfinished fan-out must be before a publish for the same account completes it. */
  readonly graceMs: number;
  /** The erasure fence's tags: an event no hook gets keeps them in its idempotency key's answer. */
  readonly erasureTags: ErasureTags;
  readonly log?: LogSink;
}

/**
 * The Redis side of a publish (Producer): the accept (with the adds prepared for the hooks this process
 * expects, on one Redis), then the fan-out when the accept did not add, and the account's abandoned fan-outs
 * first. Remembers each account and kind's hooks of its last publish, which the next publish's adds expect.
 */
export class EventAccept {
  private readonly marks: AccountMarks;
  private readonly lastHooks = new Lru<string, readonly string[]>(HOOKS_REMEMBERED);

  constructor(private readonly deps: EventAcceptDeps) {
    this.marks = new AccountMarks(deps.inbox, deps.graceMs);
  }

  /**
   * `Producer.resend`'s: the event to one hook again, at the tail of its queue, under `attemptId`. With a request
   * key given before, nothing is queued and the first request's attempt id is answered (`duplicate`).
   */
  async again(
    accountId: string,
    hookId: string,
    event: DeliverableEvent,
    attemptId: string,
    trigger: AttemptTrigger,
    trace: TraceContext | undefined,
    requestKey?: RequestKey,
  ): Promise<{ attemptId: string; duplicate: boolean }> {
    const acceptedAt = this.deps.clock().getTime();
    const mark = await this.marks.ensure(accountId);
    const queued: EventToQueue = { event, acceptedAt, trigger, attemptId, ...(trace ? { trace } : {}) };
    const adds = this.prepared(accountId, [hookId], queued);
    const acceptance = await this.deps.inbox.accept({
      accountId,
      event,
      acceptedAt,
      idempotencyTtlSeconds: this.deps.ttlSeconds,
      ...(requestKey ? { requestKey: requestKey.name, fingerprint: requestKey.fingerprint } : {}),
      hooks: [hookId],
      trigger,
      attemptId,
      ...(trace ? { trace } : {}),
      graceMs: this.deps.graceMs,
      maxAbandoned: MAX_ABANDONED_PER_PUBLISH,
      ...(mark ? { markAccount: true } : {}),
      ...(adds ? { adds } : {}),
    });
    // Written by the accept only with an inbox entry: an event whose adds it made has nothing to recover.
    if (acceptance.kind === 'accepted' && acceptance.entry) mark?.done();
    const completed = await this.completeAbandoned(accountId, acceptance.abandoned);
    if (acceptance.kind !== 'accepted') {
      const { attempt } = await this.earlier(accountId, acceptance, completed, REQUEST_KEY);
      // Every send-again's answer names its attempt (inbox-accept.lua); one without is not this route's.
      if (!attempt) throw new HooklineError('CONFLICT', REQUEST_KEY.unreadable);
      return { attemptId: attempt, duplicate: true };
    }
    await this.queued(accountId, acceptance);
    return { attemptId, duplicate: false };
  }

  /**
   * On one Redis, the event's adds to the hooks it is expected to go to, for the accept's own script: a
   * publish is then one script, with no inbox entry to fan out, delete or recover (see inbox-accept.lua).
   */
  private prepared(
    accountId: string,
    hookIds: readonly string[] | undefined,
    event: EventToQueue,
  ): PreparedAdd[] | undefined {
    if (!this.deps.inbox.oneNode || !hookIds || hookIds.length === 0) return undefined;
    return this.deps.fanOut.prepare(accountId, hookIds, event);
  }

  /** An accepted event: its hooks hold it when paused, or it is fanned out now when its adds were not made. */
  private async queued(
    accountId: string,
    acceptance: Extract<Acceptance, { kind: 'accepted' }>,
  ): Promise<void> {
    if (acceptance.addsStopped)
      this.deps.log?.warn(
        { accountId, eventId: acceptance.answer.id, reason: acceptance.addsStopped },
        "the accept's adds stopped half-way; the event is fanned out instead",
      );
    if (acceptance.added) await this.deps.fanOut.tellHeld(acceptance.added);
    else if (acceptance.entry) await this.deps.fanOut.deliver(accountId, acceptance.entry);
  }

  /** One event, checked and shaped: accepted, then queued for its hooks; the 202's answer. */
  async event(
    accountId: string,
    input: PublishEventInput,
    event: DeliverableEvent,
    acceptedAt: number,
    { idempotencyKey, requestKey, hooks, trigger, trace }: AcceptOptions,
  ): Promise<PublishResult> {
    // Indexed before the entry exists (or, on one Redis, by the same script), so an entry left by a crash is
    // always somewhere recovery looks.
    const mark = await this.marks.ensure(accountId);
    // The hooks asked for, or those the account's last publish of this kind went to.
    const expected = hooks ?? this.lastHooks.get(hooksKey(accountId, event.type));
    const queued: EventToQueue = { event, acceptedAt, trigger, ...(trace ? { trace } : {}) };
    const adds = this.prepared(accountId, expected, queued);
    // An event no hook gets keeps its erasure tags in its idempotency key's answer (inbox-accept.lua). Made
    // only when no hook is expected (about 9 µs of hashing): an expected hook that did not get it is tagged after.
    const tagged = idempotencyKey !== undefined && (!expected || expected.length === 0);
    const acceptance = await this.deps.inbox.accept({
      accountId,
      event,
      acceptedAt,
      ...(adds ? { adds } : {}),
      ...(idempotencyKey !== undefined
        ? {
            idempotencyKey,
            fingerprint: fingerprint(input),
            ...(tagged ? { erasureTags: this.deps.erasureTags.ofEvent(event.fields, event) } : {}),
          }
        : requestKey
          ? { requestKey: requestKey.name, fingerprint: requestKey.fingerprint }
          : {}),
      idempotencyTtlSeconds: this.deps.ttlSeconds,
      ...(hooks ? { hooks } : {}),
      ...(trigger ? { trigger } : {}),
      ...(trace ? { trace } : {}),
      graceMs: this.deps.graceMs,
      maxAbandoned: MAX_ABANDONED_PER_PUBLISH,
      ...(mark ? { markAccount: true } : {}),
    });
    // Written by the accept only with an inbox entry: an event whose adds it made has nothing to recover.
    if (acceptance.kind === 'accepted' && acceptance.entry) mark?.done();
    // Earlier events first: a hook then still gets its events in acceptance order after a crash.
    const completed = await this.completeAbandoned(accountId, acceptance.abandoned);
    if (acceptance.kind !== 'accepted') {
      const { id, hooks: answered } = await this.earlier(
        accountId,
        acceptance,
        completed,
        requestKey ? REQUEST_KEY : EVENT_ID,
      );
      return { id, hooks: answered, duplicate: true };
    }
    // Remembered when they changed: reading them above already made them the most recently used.
    if (!hooks && !sameHooks(expected, acceptance.answer.hooks))
      this.lastHooks.set(hooksKey(accountId, event.type), acceptance.answer.hooks);
    if (idempotencyKey !== undefined && !tagged && acceptance.answer.hooks.length === 0)
      await this.deps.inbox.tagAnswer(
        accountId,
        idempotencyKey,
        event.id,
        this.deps.erasureTags.ofEvent(event.fields, event),
      );
    await this.queued(accountId, acceptance);
    return { ...acceptance.answer, duplicate: false };
  }

  /**
   * The answer of the earlier request that gave the key the accept found, once its event is in every hook's
   * queue: the first request may still be fanning out, or may have died doing so, and the answer waits until
   * the fan-out is complete, whoever completes it. IDEMPOTENCY_CONFLICT when the key came with another request.
   */
  private async earlier(
    accountId: string,
    acceptance: Exclude<Acceptance, { kind: 'accepted' }>,
    completed: ReadonlySet<string>,
    words: KeyWords,
  ): Promise<AcceptedAnswer> {
    if (acceptance.kind === 'conflict') throw new HooklineError('IDEMPOTENCY_CONFLICT', words.conflict);
    if (!acceptance.answer) throw new HooklineError('CONFLICT', words.unreadable);
    const { pending } = acceptance;
    if (pending && !completed.has(pending.id)) await this.deps.fanOut.deliver(accountId, pending);
    return acceptance.answer;
  }

  private async completeAbandoned(accountId: string, entries: readonly InboxEntry[]): Promise<Set<string>> {
    const completed = new Set<string>();
    for (const entry of entries) {
      try {
        await this.deps.fanOut.deliver(accountId, entry, true);
        completed.add(entry.id);
      } catch (error) {
        // Not this request's event: it stays in the inbox for the monitor, and this event goes ahead.
        this.deps.log?.warn(
          { accountId, eventId: entry.event.id, err: error },
          'completing an interrupted fan-out failed; the monitor will retry',
        );
        break;
      }
    }
    return completed;
  }
}

function hooksKey(accountId: string, kind: string): string {
  return `${accountId}\n${kind}`;
}

function sameHooks(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((hookId, i) => hookId === b[i]);
}
