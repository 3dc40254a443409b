import type { Redis } from 'ioredis';
import {
  BUILT_IN_CATALOG,
  type DeliverableEvent,
  type ErasureTags,
  type EventCatalog,
  type PublishEventInput,
  HooklineError,
  newId,
  publishAcceptor,
  publishEventSchema,
  type Clock,
  systemClock,
  inSpan,
  Lru,
  traceContextFrom,
  type TraceContext,
  type Tracing,
  validationError,
  zodProblems,
} from '@hookline/core';
import { type PreparedAdd, type RedisKeys } from '@hookline/redis';
import type { Acceptance, AccountInbox, InboxEntry } from './inbox/account-inbox';
import { AccountMarks } from './inbox/account-marks';
import { createInboxFanOut, type EventToQueue, type FanOut } from './inbox/fan-out';
import { INBOX_GRACE_MS } from './inbox/inbox-recovery';
import { fingerprint, testCallEvent, toDeliverable } from './event-shape';
import type { AttemptTrigger, LogSink } from '@hookline/core';

export interface PublishResult {
  readonly id: string;
  readonly hooks: string[];
  /** True when this idempotency key was accepted before: the answer is the original one, nothing was enqueued. */
  readonly duplicate: boolean;
}

export interface ProducerDeps {
  redis: Redis;
  keys: RedisKeys;
  clock?: Clock;
  idempotencyTtlSeconds?: number;
  /** Called with the hooks that were paused when the event arrived, so the hold cap can drop the oldest. */
  onHeld?: (hookIds: readonly string[]) => Promise<unknown>;
  /** How old an unfinished fan-out must be before a publish for the same account completes it. */
  recoveryGraceMs?: number;
  log?: LogSink;
  /** The event kinds (HOOKLINE_EVENT_CATALOG); call_created alone when absent. */
  catalog?: EventCatalog;
  /** Spans (`hookline.publish`, `hookline.fanout`, `hookline.resend`), when an exporter is configured. */
  tracing?: Tracing;
  /**
   * The erasure fence's tags (the store's, keyed from the secret key): an event no hook gets keeps them in its
   * idempotency key's answer, where an erasure, tagging with the same key, finds it.
   */
  erasureTags: ErasureTags;
}

/** What a producer may add to a publish beside the event. */
export interface PublishOptions {
  /**
   * The W3C trace context of the producer's span (its `traceparent`, `tracestate` headers): the publish and
   * every attempt of the event join that trace. A value that breaks the W3C rules is ignored, never refused.
   */
  readonly trace?: { readonly traceparent?: unknown; readonly tracestate?: unknown };
}

interface AcceptOptions {
  readonly idempotencyKey: string | undefined;
  readonly hooks: readonly string[] | undefined;
  readonly trigger: AttemptTrigger | undefined;
  readonly trace: TraceContext | undefined;
}

const DAY_SECONDS = 24 * 3600;
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

/**
 * Accepts events and fans each one out to every hook of its account, all or none, on one Redis or a Redis
 * Cluster alike. Accepting is a single write in the account's slot (the event and the snapshot of the
 * account's hooks go into the account's inbox, with the idempotency key); the fan-out then adds the event to
 * each hook's queue idempotently and deletes the inbox entry. The answer comes once every hook's queue has
 * the event. If the fan-out is interrupted (the process dies, Redis fails half-way), the entry stays and is
 * completed later, by the next publish for the account or by the monitor: an accepted event always reaches
 * every hook of its snapshot, exactly once each.
 *
 * On one Redis, a publish whose hooks this process expects (those of the account's last publish of the kind,
 * or the hook named by a send-again or test) has its adds prepared and made by the accept's own script, with
 * each hook's signal, instead of an inbox entry: one write in all, nothing to fan out, delete or recover. The
 * script falls back to the entry when the hooks it finds are others, or an abandoned entry of the account
 * must go first, or a queue refuses its add (see inbox-accept.lua).
 */
export class Producer {
  private readonly inbox: AccountInbox;
  private readonly fanOut: FanOut;
  private readonly clock: Clock;
  private readonly ttl: number;
  private readonly graceMs: number;
  private readonly marks: AccountMarks;
  private readonly catalog: EventCatalog;
  private readonly accept_: (body: unknown) => PublishEventInput | undefined;
  private readonly schema: ReturnType<typeof publishEventSchema>;
  private readonly lastHooks = new Lru<string, readonly string[]>(HOOKS_REMEMBERED);

  constructor(private readonly deps: ProducerDeps) {
    ({ inbox: this.inbox, fanOut: this.fanOut } = createInboxFanOut({
      redis: deps.redis,
      keys: deps.keys,
      ...(deps.onHeld ? { onHeld: deps.onHeld } : {}),
      ...(deps.tracing ? { tracing: deps.tracing } : {}),
    }));
    this.clock = deps.clock ?? systemClock;
    this.ttl = deps.idempotencyTtlSeconds ?? DAY_SECONDS;
    this.graceMs = deps.recoveryGraceMs ?? INBOX_GRACE_MS;
    this.catalog = deps.catalog ?? BUILT_IN_CATALOG;
    this.accept_ = publishAcceptor(this.catalog);
    this.schema = publishEventSchema(this.catalog);
    this.marks = new AccountMarks(this.inbox, this.graceMs);
  }

  /**
   * Publishes an event of a kind producers may publish, checked against the catalogue (a 400-style
   * VALIDATION_FAILED naming each bad field otherwise): the TypeScript producer is held to the same contract
   * as the HTTP API. The event goes to the account's hooks subscribed to its kind, all or none.
   */
  async publish(
    accountId: string,
    input: PublishEventInput,
    options?: PublishOptions,
  ): Promise<PublishResult> {
    const checked = this.checked(input);
    const trace = options?.trace && traceContextFrom(options.trace.traceparent, options.trace.tracestate);
    return this.accept(accountId, checked, input.id, undefined, undefined, trace);
  }

  /**
   * An operator notice (`hook.failing`, `hook.suspended`, `hook.enabled`): built-in kinds only hookline
   * publishes, never producers, delivered through the same inbox, fan-out and workers as any event.
   */
  async publishNotice(accountId: string, input: PublishEventInput): Promise<PublishResult> {
    const kind = this.catalog.get(input.type);
    if (kind?.origin !== 'hookline') throw new Error(`${input.type} is not an operator notice kind`);
    return this.accept(accountId, input, input.id);
  }

  /** A sample call_created to one hook, in sequence with its other events, whatever the hook subscribes to. */
  async publishTest(accountId: string, hookId: string): Promise<{ id: string }> {
    const { id } = await this.accept(accountId, testCallEvent(), undefined, [hookId], 'test');
    return { id };
  }

  /**
   * The same event (same id, same fields) to one hook again, at the tail of its queue: delivered in sequence,
   * once, recorded as `trigger` (a send-again is `manual`) under `attemptId`. Held like any event while the
   * hook is suspended. `from`: the attempt sent again, in its trace (see traceOfRecord): the new attempt
   * joins that trace.
   */
  async resend(
    accountId: string,
    hookId: string,
    event: DeliverableEvent,
    attemptId: string,
    trigger: AttemptTrigger = 'manual',
    from?: TraceContext,
  ): Promise<void> {
    await inSpan(
      this.deps.tracing,
      'hookline.resend',
      from,
      () => ({
        'hookline.account_id': accountId,
        'hookline.hook_id': hookId,
        'hookline.event_id': event.id,
        'hookline.attempt_id': attemptId,
        'hookline.trigger': trigger,
      }),
      (trace) => this.queueAgain(accountId, hookId, event, attemptId, trigger, trace),
    );
  }

  private async queueAgain(
    accountId: string,
    hookId: string,
    event: DeliverableEvent,
    attemptId: string,
    trigger: AttemptTrigger,
    trace: TraceContext | undefined,
  ): Promise<void> {
    const acceptedAt = this.clock().getTime();
    const mark = await this.marks.ensure(accountId);
    const queued: EventToQueue = { event, acceptedAt, trigger, attemptId, ...(trace ? { trace } : {}) };
    const adds = this.prepared(accountId, [hookId], queued);
    const acceptance = await this.inbox.accept({
      accountId,
      event,
      acceptedAt,
      idempotencyTtlSeconds: this.ttl,
      hooks: [hookId],
      trigger,
      attemptId,
      ...(trace ? { trace } : {}),
      graceMs: this.graceMs,
      maxAbandoned: MAX_ABANDONED_PER_PUBLISH,
      ...(mark ? { markAccount: true } : {}),
      ...(adds ? { adds } : {}),
    });
    // Written by the accept only with an inbox entry: an event whose adds it made has nothing to recover.
    if (acceptance.kind === 'accepted' && acceptance.entry) mark?.done();
    await this.completeAbandoned(accountId, acceptance.abandoned);
    if (acceptance.kind === 'accepted') await this.queued(accountId, acceptance);
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
    if (!this.inbox.oneNode || !hookIds || hookIds.length === 0) return undefined;
    return this.fanOut.prepare(accountId, hookIds, event);
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
    if (acceptance.added) await this.fanOut.tellHeld(acceptance.added);
    else if (acceptance.entry) await this.fanOut.deliver(accountId, acceptance.entry);
  }

  async close(): Promise<void> {
    await this.fanOut.close();
  }

  private checked(input: PublishEventInput): PublishEventInput {
    const accepted = this.accept_(input);
    if (accepted) return accepted;
    const parsed = this.schema.safeParse(input);
    if (!parsed.success) throw validationError(zodProblems(parsed.error));
    return parsed.data;
  }

  private async accept(
    accountId: string,
    input: PublishEventInput,
    idempotencyKey: string | undefined,
    hooks?: readonly string[],
    trigger?: AttemptTrigger,
    parent?: TraceContext,
  ): Promise<PublishResult> {
    const kind = this.catalog.get(input.type);
    if (!kind) throw new Error(`event kind ${input.type} is not in the catalogue`);
    const now = this.clock();
    const event = toDeliverable(newId('evt', now.getTime()), input, kind, now);
    const attributes = () => ({
      'hookline.account_id': accountId,
      'hookline.event_id': event.id,
      'hookline.event_kind': event.type,
      'hookline.trigger': trigger ?? 'auto',
    });
    // The attempts join the publish's span; without tracing, the producer's own context goes on as given.
    return inSpan(this.deps.tracing, 'hookline.publish', parent, attributes, async (trace, span) => {
      const result = await this.acceptEvent(accountId, input, event, now.getTime(), {
        idempotencyKey,
        hooks,
        trigger,
        trace,
      });
      span?.set({ 'hookline.hooks': result.hooks.length, 'hookline.duplicate': result.duplicate });
      return result;
    });
  }

  private async acceptEvent(
    accountId: string,
    input: PublishEventInput,
    event: DeliverableEvent,
    acceptedAt: number,
    { idempotencyKey, hooks, trigger, trace }: AcceptOptions,
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
    const acceptance = await this.inbox.accept({
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
        : {}),
      idempotencyTtlSeconds: this.ttl,
      ...(hooks ? { hooks } : {}),
      ...(trigger ? { trigger } : {}),
      ...(trace ? { trace } : {}),
      graceMs: this.graceMs,
      maxAbandoned: MAX_ABANDONED_PER_PUBLISH,
      ...(mark ? { markAccount: true } : {}),
    });
    // Written by the accept only with an inbox entry: an event whose adds it made has nothing to recover.
    if (acceptance.kind === 'accepted' && acceptance.entry) mark?.done();
    // Earlier events first: a hook then still gets its events in acceptance order after a crash.
    const completed = await this.completeAbandoned(accountId, acceptance.abandoned);
    if (acceptance.kind === 'conflict')
      throw new HooklineError(
        'IDEMPOTENCY_CONFLICT',
        'An event with this id was accepted with a different body; use a new id for a different event',
      );
    if (acceptance.kind === 'duplicate') {
      if (!acceptance.answer)
        throw new HooklineError('CONFLICT', 'An event with this id is still being accepted; retry');
      // The first request may still be fanning out, or may have died doing so: the answer waits until
      // every hook's queue has the event, whoever completes it.
      const { pending } = acceptance;
      if (pending && !completed.has(pending.id)) await this.fanOut.deliver(accountId, pending);
      return { ...acceptance.answer, duplicate: true };
    }
    // Remembered when they changed: reading them above already made them the most recently used.
    if (!hooks && !sameHooks(expected, acceptance.answer.hooks))
      this.lastHooks.set(hooksKey(accountId, event.type), acceptance.answer.hooks);
    if (idempotencyKey !== undefined && !tagged && acceptance.answer.hooks.length === 0)
      await this.inbox.tagAnswer(
        accountId,
        idempotencyKey,
        event.id,
        this.deps.erasureTags.ofEvent(event.fields, event),
      );
    await this.queued(accountId, acceptance);
    return { ...acceptance.answer, duplicate: false };
  }

  private async completeAbandoned(accountId: string, entries: readonly InboxEntry[]): Promise<Set<string>> {
    const completed = new Set<string>();
    for (const entry of entries) {
      try {
        await this.fanOut.deliver(accountId, entry, true);
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
