import type { Redis } from 'ioredis';
import {
  callAcknowledged,
  PAUSED_FIELD,
  runConfirmed,
  type PreparedAdd,
  type RedisKeys,
} from '@hookline/redis';
import { INBOX_SCRIPTS } from './scripts';
import { DEDUPE_AFTER_DONE_MS } from '../jobs';
import type { AttemptTrigger, DeliverableEvent } from '@hookline/core';
import type { Acceptance, AcceptedAnswer, AcceptInput, InboxEntry } from './inbox-entry';

// Accepting an event is one script in the account's slot: the idempotency key, the snapshot of the account's
// hooks and the inbox entry are written together, so an event is either accepted (and then reaches every hook
// of the snapshot) or not at all. The fan-out to the hooks' queues, which live in other slots of a Redis
// Cluster, follows; the entry is deleted once every hook's queue has the event. An entry still there after a
// grace period was left by a process that died mid-fan-out: the next publish for the account, or the
// monitor's recovery pass, repeats its fan-out (adding to a queue is idempotent per event id).
//
// On one Redis the accept may make the adds itself (`adds`, prepared by the caller for the hooks it expects):
// the event then goes into every hook's queue, signalled, in the accept's script, and has no entry at all.
//
// Ages are measured with the Redis server's clock (TIME), the one that stamps stream ids, so producers on
// machines with skewed clocks agree on what is abandoned.

type RawEntry = [string, string[]];
/** inbox-accept.lua's reply: kind, answer, pending, abandoned, read time, adds made, why they stopped. */
type AcceptReply = [string, string, RawEntry[], RawEntry[], number, (string | number)[]?, string?];

export class AccountInbox {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /**
   * Whether the accounts' keys and the global index of accounts with entries live on one node (one Redis, not a
   * Redis Cluster): a script may then write both, so `accept` marks its account itself (`markAccount`) and
   * `visit` forgets an empty account's mark, each without a script of its own.
   */
  get oneNode(): boolean {
    return !this.redis.isCluster;
  }

  /** Indexes the accounts for recovery; must happen before their entries are written. */
  async markActive(accountIds: readonly string[]): Promise<void> {
    if (accountIds.length === 0) return;
    await INBOX_SCRIPTS.inboxMark.run(this.redis, [this.keys.inboxAccounts()], accountIds);
  }

  /**
   * Keeps an accepted event's erasure tags in its idempotency key's answer (inbox-tag-answer.lua): for an event
   * no hook got whose accept was sent without them.
   */
  async tagAnswer(accountId: string, idempotencyKey: string, eventId: string, tags: readonly string[]) {
    if (tags.length === 0) return;
    const key = this.keys.accountIdempotency(accountId, idempotencyKey);
    await INBOX_SCRIPTS.inboxTagAnswer.run(this.redis, [key], [eventId, tags.join(' ')]);
  }

  async accept(input: AcceptInput): Promise<Acceptance> {
    const { keys } = this;
    if (input.idempotencyKey !== undefined && input.requestKey !== undefined)
      throw new Error('an accept keeps one idempotency key: an event id or a request key, not both');
    const idemKey = input.idempotencyKey
      ? [keys.accountIdempotency(input.accountId, input.idempotencyKey)]
      : input.requestKey
        ? [keys.accountRequestKey(input.accountId, input.requestKey)]
        : [];
    // The idempotency key and the entry on the replicas before any job is added (HOOKLINE_REDIS_REPLICA_ACKS):
    // otherwise a promoted replica could lack the key while a job survives on another shard, and a retry with
    // the same id would become a second event. Prepared adds are made by the same script, and acknowledged with it.
    const adds = input.adds ?? [];
    if (adds.length > 0 && this.redis.isCluster)
      throw new Error("a Redis Cluster cannot add to hooks' queues in the accept's script");
    const { addKeys, addArgs } = addsArguments(keys, adds);
    // The tags come after the adds' arguments (inbox-accept.lua): without adds, their four leading arguments
    // are sent saying none.
    const tags = idemKey.length > 0 ? (input.erasureTags ?? []).join(' ') : '';
    const tagArgs = tags === '' ? [] : [...(adds.length > 0 ? [] : NO_ADDS), tags];
    // The queues' meta writes sent by prepare went out first on this connection: waited for with the script.
    const [reply] = (await Promise.all([
      runConfirmed(
        this.redis,
        INBOX_SCRIPTS.inboxAccept,
        [
          keys.accountInbox(input.accountId),
          keys.accountHooks(input.accountId),
          keys.accountHookEvents(input.accountId),
          keys.accountHookFilters(input.accountId),
          ...idemKey,
          ...(input.markAccount ? [keys.inboxAccounts()] : []),
          ...addKeys,
        ],
        [
          input.event.id,
          JSON.stringify(input.event),
          input.acceptedAt,
          input.idempotencyTtlSeconds,
          input.graceMs,
          input.maxAbandoned,
          input.hooks ? JSON.stringify(input.hooks) : '',
          input.fingerprint ?? '',
          input.event.type,
          input.trigger && input.trigger !== 'auto' ? input.trigger : '',
          input.attemptId ?? '',
          input.trace?.traceparent ?? '',
          input.trace?.tracestate ?? '',
          input.markAccount ? input.accountId : '',
          ...addArgs,
          ...tagArgs,
        ],
      ),
      ...adds.map((add) => add.metaWritten),
    ])) as [AcceptReply, ...unknown[]];
    const [kind, answerJson, pendingRaw, abandonedRaw, readAt, addedRaw, addsStopped] = reply;
    const abandoned = abandonedRaw.map((raw) => toEntry(raw, readAt));
    if (kind === 'conflict') return { kind, abandoned };
    const stored = parseAnswer(answerJson);
    const answer = stored && {
      id: stored.id,
      hooks: stored.hooks,
      ...(stored.attempt ? { attempt: stored.attempt } : {}),
    };
    if (kind === 'accepted' && stored && answer && addedRaw && addedRaw.length > 0) {
      // BullMQ checks each answer as from its own script.
      const added = await Promise.all(
        adds.map(async (add, i) => {
          await add.answered(addedRaw[i * 2]!);
          return { hookId: add.hookId, paused: addedRaw[i * 2 + 1] === 1 };
        }),
      );
      return { kind, answer, added, abandoned };
    }
    if (kind === 'accepted' && stored && answer) {
      // Built from what was sent rather than read back: the same event, hooks and time the entry holds.
      const entry: InboxEntry | undefined = stored.entry
        ? {
            id: stored.entry,
            event: input.event,
            hooks: stored.hooks,
            acceptedAt: input.acceptedAt,
            ...(input.trigger ? { trigger: input.trigger } : {}),
            ...(input.attemptId ? { attemptId: input.attemptId } : {}),
            ...(input.trace ? { trace: input.trace } : {}),
            readAt,
          }
        : undefined;
      return {
        kind,
        answer,
        ...(entry ? { entry } : {}),
        ...(addsStopped ? { addsStopped } : {}),
        abandoned,
      };
    }
    const pending = pendingRaw[0] && toEntry(pendingRaw[0], readAt);
    return {
      kind: 'duplicate',
      ...(answer ? { answer } : {}),
      ...(pending ? { pending } : {}),
      abandoned,
    };
  }

  /**
   * Deletes done entries: one XDEL per inbox, sent together (each inbox is its own slot in a Redis Cluster),
   * with its WAIT in the same pipeline when acknowledgements are required. For each entry, true when its
   * deletion went through and is on the replicas (always, when none are required); false when it failed or is
   * not known to be on them (a failover may bring the entry back). An XDEL deletes all its ids or none, and an
   * id already gone counts as deleted.
   */
  async deleteDone(entries: readonly { accountId: string; entryId: string }[]): Promise<boolean[]> {
    const ids = new Map<string, string[]>();
    for (const { accountId, entryId } of entries) {
      const inbox = this.keys.accountInbox(accountId);
      const list = ids.get(inbox);
      if (list) list.push(entryId);
      else ids.set(inbox, [entryId]);
    }
    const deleted = new Map<string, boolean>();
    await Promise.all(
      [...ids].map(async ([inbox, inboxIds]) => {
        try {
          const { unacknowledged } = await callAcknowledged(this.redis, 'XDEL', inbox, inboxIds);
          deleted.set(inbox, !unacknowledged);
        } catch {
          deleted.set(inbox, false);
        }
      }),
    );
    return entries.map(({ accountId }) => deleted.get(this.keys.accountInbox(accountId))!);
  }

  /** Accounts that accepted nothing within the grace period (and may have abandoned entries). */
  async quietAccounts(graceMs: number, limit: number): Promise<string[]> {
    return (await INBOX_SCRIPTS.inboxQuietAccounts.run(
      this.redis,
      [this.keys.inboxAccounts()],
      [graceMs, limit],
    )) as string[];
  }

  /** The account's entries older than the grace period, oldest first. */
  async olderThan(accountId: string, graceMs: number, limit: number): Promise<InboxEntry[]> {
    return this.readOlderThan(accountId, graceMs, limit, false);
  }

  /**
   * Recovery's first look at a quiet account: its entries older than the grace period, as `olderThan`; on one
   * node, when the inbox is empty, the account is also dropped from the index in the same script (inbox-forget
   * .lua's rule: only if its mark is older than the grace period), and `looked` says the visit needs nothing
   * more. On a Redis Cluster the index lives on another shard: the caller forgets the account itself.
   */
  async visit(
    accountId: string,
    graceMs: number,
    limit: number,
  ): Promise<{ entries: InboxEntry[]; looked: boolean }> {
    const entries = await this.readOlderThan(accountId, graceMs, limit, this.oneNode);
    return { entries, looked: this.oneNode && entries.length === 0 };
  }

  /** inbox-older-than.lua; with `forget`, given the index too, it forgets an empty inbox's account. */
  private async readOlderThan(
    accountId: string,
    graceMs: number,
    limit: number,
    forget: boolean,
  ): Promise<InboxEntry[]> {
    const [readAt, raw] = (await INBOX_SCRIPTS.inboxOlderThan.run(
      this.redis,
      [this.keys.accountInbox(accountId), ...(forget ? [this.keys.inboxAccounts()] : [])],
      [graceMs, limit, ...(forget ? [accountId] : [])],
    )) as [number, RawEntry[]];
    return raw.map((entry) => toEntry(entry, readAt));
  }

  async isEmpty(accountId: string): Promise<boolean> {
    return (await this.redis.xlen(this.keys.accountInbox(accountId))) === 0;
  }

  async forget(accountId: string, graceMs: number): Promise<void> {
    await INBOX_SCRIPTS.inboxForget.run(this.redis, [this.keys.inboxAccounts()], [accountId, graceMs]);
  }
}

/** The answer as the script stores it: with the inbox entry it wrote ('' when there were no hooks). */
function parseAnswer(json: string): (AcceptedAnswer & { readonly entry?: string }) | undefined {
  try {
    const parsed = JSON.parse(json) as Partial<AcceptedAnswer> & { entry?: unknown };
    if (typeof parsed.id !== 'string' || !Array.isArray(parsed.hooks)) return undefined;
    const entry = typeof parsed.entry === 'string' && parsed.entry !== '' ? parsed.entry : undefined;
    const attempt = typeof parsed.attempt === 'string' ? parsed.attempt : undefined;
    return {
      id: parsed.id,
      hooks: parsed.hooks,
      ...(entry ? { entry } : {}),
      ...(attempt ? { attempt } : {}),
    };
  } catch {
    return undefined;
  }
}

function toEntry([id, fields]: RawEntry, readAt: number): InboxEntry {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i]!, fields[i + 1]!);
  return {
    id,
    event: JSON.parse(map.get('event') ?? '{}') as DeliverableEvent,
    hooks: JSON.parse(map.get('hooks') ?? '[]') as string[],
    acceptedAt: Number(map.get('at') ?? 0),
    ...(map.has('trigger') ? { trigger: map.get('trigger') as AttemptTrigger } : {}),
    ...(map.has('attempt') ? { attemptId: map.get('attempt')! } : {}),
    ...(map.has('traceparent')
      ? {
          trace: {
            traceparent: map.get('traceparent')!,
            ...(map.has('tracestate') ? { tracestate: map.get('tracestate')! } : {}),
          },
        }
      : {}),
    readAt,
  };
}

/** inbox-accept.lua's KEYS and ARGV for prepared adds, after the accept's own (see its header). */
/** addsArguments' four leading arguments when there are no adds: none, and nothing the script reads. */
const NO_ADDS = [0, 0, '', 0] as const;

function addsArguments(keys: RedisKeys, adds: readonly PreparedAdd[]) {
  if (adds.length === 0) return { addKeys: [], addArgs: [] };
  return {
    addKeys: [...adds.flatMap((add) => add.keys), ...keys.signalKeys()],
    addArgs: [
      adds.length,
      Date.now(),
      PAUSED_FIELD,
      DEDUPE_AFTER_DONE_MS,
      ...adds.flatMap((add) => [add.hookId, ...add.args, add.deduplicationKey, add.metaKey]),
    ],
  };
}
