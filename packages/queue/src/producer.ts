import type { Redis } from 'ioredis';
import {
  BUILT_IN_CATALOG,
  type DeliverableEvent,
  type ErasureTags,
  type EventCatalog,
  type PublishEventInput,
  type RequestKey,
  type SendOptions,
  newId,
  publishAcceptor,
  publishEventSchema,
  type Clock,
  systemClock,
  inSpan,
  traceContextFrom,
  type TraceContext,
  type Tracing,
  validationError,
  zodProblems,
} from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import { EventAccept, type PublishResult } from './inbox/event-accept';
import { createInboxFanOut, type FanOut } from './inbox/fan-out';
import { INBOX_GRACE_MS } from './inbox/inbox-recovery';
import { testCallEvent, toDeliverable } from './event-shape';
import type { AttemptTrigger, LogSink } from '@hookline/core';

export type { PublishResult } from './inbox/event-accept';

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

const DAY_SECONDS = 24 * 3600;

/**
 * The way events come in: checks a publish against the catalogue, opens its span, and accepts it (EventAccept).
 *
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
  private readonly fanOut: FanOut;
  private readonly accepting: EventAccept;
  private readonly clock: Clock;
  private readonly catalog: EventCatalog;
  private readonly accept_: (body: unknown) => PublishEventInput | undefined;
  private readonly schema: ReturnType<typeof publishEventSchema>;

  constructor(private readonly deps: ProducerDeps) {
    const { inbox, fanOut } = createInboxFanOut({
      redis: deps.redis,
      keys: deps.keys,
      ...(deps.onHeld ? { onHeld: deps.onHeld } : {}),
      ...(deps.tracing ? { tracing: deps.tracing } : {}),
    });
    this.fanOut = fanOut;
    this.clock = deps.clock ?? systemClock;
    this.accepting = new EventAccept({
      inbox,
      fanOut,
      clock: this.clock,
      ttlSeconds: deps.idempotencyTtlSeconds ?? DAY_SECONDS,
      graceMs: deps.recoveryGraceMs ?? INBOX_GRACE_MS,
      erasureTags: deps.erasureTags,
      ...(deps.log ? { log: deps.log } : {}),
    });
    this.catalog = deps.catalog ?? BUILT_IN_CATALOG;
    this.accept_ = publishAcceptor(this.catalog);
    this.schema = publishEventSchema(this.catalog);
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

  /**
   * A sample call_created to one hook, in sequence with its other events, whatever the hook subscribes to. With
   * `options.requestKey` given before, nothing is queued and the first request's event id is answered.
   */
  async publishTest(
    accountId: string,
    hookId: string,
    options: SendOptions = {},
  ): Promise<{ id: string; duplicate: boolean }> {
    const { id, duplicate } = await this.accept(
      accountId,
      testCallEvent(),
      undefined,
      [hookId],
      'test',
      undefined,
      options.requestKey,
    );
    return { id, duplicate };
  }

  /**
   * The same event (same id, same fields) to one hook again, at the tail of its queue: delivered in sequence,
   * once, recorded as `trigger` (a send-again is `manual`) under `attemptId`. Held like any event while the
   * hook is suspended. `from`: the attempt sent again, in its trace (see traceOfRecord): the new attempt
   * joins that trace. With `options.requestKey` given before, nothing is queued and the attempt id the first
   * request was given is answered.
   */
  async resend(
    accountId: string,
    hookId: string,
    event: DeliverableEvent,
    attemptId: string,
    trigger: AttemptTrigger = 'manual',
    from?: TraceContext,
    options: SendOptions = {},
  ): Promise<{ attemptId: string; duplicate: boolean }> {
    return inSpan(
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
      (trace) =>
        this.accepting.again(accountId, hookId, event, attemptId, trigger, trace, options.requestKey),
    );
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
    requestKey?: RequestKey,
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
      const result = await this.accepting.event(accountId, input, event, now.getTime(), {
        idempotencyKey,
        ...(requestKey ? { requestKey } : {}),
        hooks,
        trigger,
        trace,
      });
      // A repeat of an id answers the first publish's event: its id is the one to find the trace by, not the
      // id this publish would have given a new event.
      span?.set({
        'hookline.event_id': result.id,
        'hookline.hooks': result.hooks.length,
        'hookline.duplicate': result.duplicate,
      });
      return result;
    });
  }
}
