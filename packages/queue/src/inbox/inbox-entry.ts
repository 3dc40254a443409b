import type { AttemptTrigger, DeliverableEvent, TraceContext } from '@hookline/core';
import type { PreparedAdd } from '@hookline/redis';

// What the account's inbox holds and answers (account-inbox.ts): an accepted event's entry, the accept's
// input and its outcome.

export interface InboxEntry {
  /** The stream entry id. */
  readonly id: string;
  readonly event: DeliverableEvent;
  /** The account's hooks when the event was accepted: the ones it goes to. */
  readonly hooks: readonly string[];
  readonly acceptedAt: number;
  /** What queued it, when not the event's own publish: recorded with each attempt. */
  readonly trigger?: AttemptTrigger;
  /**
   * The attempt it was queued for (a send-again): its job is then a job of its own beside the event's first
   * one (the job id is the event id and this), and its record carries this id.
   */
  readonly attemptId?: string;
  /** The trace the event's attempts join: the publish's span (or the producer's, without tracing). */
  readonly trace?: TraceContext;
  /**
   * When the entry was read (ms, the Redis server's clock, taken in the script that handed it out): the
   * fan-out of this copy is refused once that is FANOUT_STALE_MS old. Not stored: a property of the read.
   */
  readonly readAt: number;
}

export interface AcceptedAnswer {
  readonly id: string;
  readonly hooks: string[];
  /** The attempt the event was queued for (a send-again's), when it was. */
  readonly attempt?: string;
}

export type Acceptance =
  | {
      readonly kind: 'accepted';
      readonly answer: AcceptedAnswer;
      /** Absent when the account has no hooks, or its adds were made with it: there is nothing to fan out. */
      readonly entry?: InboxEntry;
      /** The prepared adds, made by the accept's script: each hook's queue has the event, signalled. */
      readonly added?: readonly { readonly hookId: string; readonly paused: boolean }[];
      /** Why the prepared adds stopped half-way (a queue refused one): the entry was written instead. */
      readonly addsStopped?: string;
      readonly abandoned: InboxEntry[];
    }
  | { readonly kind: 'conflict'; readonly abandoned: InboxEntry[] }
  | {
      readonly kind: 'duplicate';
      /** Undefined when the earlier answer cannot be read (it is being written by an older version). */
      readonly answer?: AcceptedAnswer;
      /** The earlier acceptance's entry when its fan-out is not complete yet. */
      readonly pending?: InboxEntry;
      readonly abandoned: InboxEntry[];
    };

export interface AcceptInput {
  readonly accountId: string;
  readonly event: DeliverableEvent;
  readonly acceptedAt: number;
  readonly idempotencyKey?: string;
  /** Instead of `idempotencyKey`: the name of a request's Idempotency-Key (core's RequestKey, keys.accountRequestKey). */
  readonly requestKey?: string;
  readonly idempotencyTtlSeconds: number;
  /** What the request asked for (a hash): the same key with another one is a conflict. */
  readonly fingerprint?: string;
  /**
   * The event's erasure tags (keyed hashes, core's ErasureTags), with an idempotency key: kept in the key's answer
   * when no hook gets the event, for then the key is all Redis keeps of it and an erasure finds it by them.
   */
  readonly erasureTags?: readonly string[];
  /** The hooks to deliver to; when absent, the account's current hooks subscribed to the event's kind. */
  readonly hooks?: readonly string[];
  readonly graceMs: number;
  readonly maxAbandoned: number;
  readonly trigger?: AttemptTrigger;
  readonly attemptId?: string;
  readonly trace?: TraceContext;
  /**
   * Mark the account in the index recovery walks in the accept's own script (one Redis only: see
   * AccountMarks), instead of a mark of its own before it; written only with the inbox entry (`entry`).
   */
  readonly markAccount?: boolean;
  /**
   * The event's adds to its hooks' queues, prepared (one Redis only): made by the accept's own script, with
   * each hook's signal, instead of an inbox entry, when they are the hooks the accept finds and no entry of
   * the account is abandoned (see inbox-accept.lua). Otherwise the entry is written, for the caller to fan out.
   */
  readonly adds?: readonly PreparedAdd[];
}
