import type { Redis } from 'ioredis';
import {
  buildAttemptRecord,
  erasedRecord,
  erasureMatches,
  type AttemptRecord,
  type Clock,
  type DeliverableEvent,
  type ErasureCounts,
  type ErasureTarget,
} from '@hookline/core';
import { eraseHistory, type SqlClient } from '@hookline/history';
import {
  mastersOf,
  OUTBOX_IDLE_TTL_MS,
  personalArg,
  SCRIPTS,
  type HistoryOutbox,
  type HookQueues,
  type RedisKeys,
} from '@hookline/redis';
import { ERASURE_FENCE_TTL_MS, type RedisErasures } from '@hookline/store';

// The steps of one erasure, each repeatable: a step finds only what is still there to erase, so a runner
// that died mid-step and the one that takes over count and erase nothing twice. Each returns what it erased
// (a count for its place) and the ids of the events it erased (for the idempotency step).

export interface StepDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly erasures: Pick<RedisErasures, 'events' | 'addEvents' | 'cleanSuspensionFailures' | 'tagsOf'>;
  readonly outbox: Pick<HistoryOutbox, 'append'>;
  readonly hookQueues: Pick<HookQueues, 'eraseWaitingWindow' | 'eraseRetainedWindow' | 'eraseActive'>;
  readonly sql: SqlClient;
  readonly clock: Clock;
}

export interface StepInput {
  readonly accountId: string;
  readonly erasureId: string;
  readonly target: ErasureTarget;
}

export interface StepResult {
  readonly place: keyof ErasureCounts;
  readonly count: number;
  readonly eventIds: readonly string[];
}

// Bounds one script run: a held backlog of millions is erased in many short scripts, not one long one.
const WINDOW = 500;

const hooksOf = (d: StepDeps, accountId: string) => d.redis.smembers(d.keys.accountHooks(accountId));

/** Entries accepted but not yet fanned out: removed, so recovery cannot fan them out afterwards. */
export async function eraseInbox(d: StepDeps, s: StepInput): Promise<StepResult> {
  const key = d.keys.accountInbox(s.accountId);
  const entries = (await d.redis.xrange(key, '-', '+')) as [string, string[]][];
  const ids: string[] = [];
  const eventIds: string[] = [];
  for (const [id, flat] of entries) {
    const json = flat[flat.indexOf('event') + 1];
    const event = json ? (JSON.parse(json) as DeliverableEvent) : undefined;
    if (event && erasureMatches(s.target, event.fields, event.type)) {
      ids.push(id);
      eventIds.push(event.id);
    }
  }
  if (ids.length > 0) await d.redis.xdel(key, ...ids);
  return { place: 'inbox', count: ids.length, eventIds };
}

/** The stub a removed job leaves in the history (nothing of the event's content), and its event id. */
function queuedStub(
  d: StepDeps,
  s: StepInput,
  hookId: string,
  data: string,
  outcome: 'erased' | 'unknown',
): { record: AttemptRecord; eventId: string } {
  const job = JSON.parse(data) as {
    event: DeliverableEvent;
    trigger?: AttemptRecord['trigger'];
    attemptId?: string;
  };
  const at = d.clock();
  const subject = { accountId: s.accountId, hookId, event: job.event, trigger: job.trigger ?? 'auto' };
  const record = buildAttemptRecord(
    { ...subject, ...(job.attemptId ? { attemptId: job.attemptId } : {}) },
    { outcome, at },
  );
  return { record: erasedRecord(record, at), eventId: job.event.id };
}

/** Waiting and held events: removed from each hook's queue and recorded `erased` in the hook's history. */
export async function eraseQueued(d: StepDeps, s: StepInput): Promise<StepResult> {
  const eventIds: string[] = [];
  for (const hookId of await hooksOf(d, s.accountId))
    for (let cursor = 0; cursor >= 0;) {
      const { next, removed } = await d.hookQueues.eraseWaitingWindow(hookId, s.target, cursor, WINDOW);
      cursor = next;
      const stubs = removed.map(([, data]) => queuedStub(d, s, hookId, data, 'erased'));
      eventIds.push(...stubs.map((stub) => stub.eventId));
      await d.outbox.append(
        hookId,
        stubs.map((stub) => stub.record),
      );
    }
  const active = await eraseActiveJobs(d, s);
  return {
    place: 'queued',
    count: eventIds.length + active.count,
    eventIds: [...eventIds, ...active.eventIds],
  };
}

/**
 * The hooks' active jobs of matching events whose holder is gone (a worker that died with one): removed and
 * recorded `erased`, or `unknown` when the attempt had begun (its request may have reached the endpoint), as a
 * stub either way. `held` counts those whose holder is alive: the fence refuses their request, and they leave
 * the active list within the job lock's time (recorded, or their holder's lock lapses).
 */
export async function eraseActiveJobs(d: StepDeps, s: StepInput): Promise<StepResult & { held: number }> {
  const eventIds: string[] = [];
  let held = 0;
  for (const hookId of await hooksOf(d, s.accountId)) {
    const active = await d.hookQueues.eraseActive(hookId, s.target);
    if (active.kind === 'held') held += 1;
    if (active.kind !== 'removed') continue;
    const stub = queuedStub(d, s, hookId, active.data, active.begun ? 'unknown' : 'erased');
    eventIds.push(stub.eventId);
    await d.outbox.append(hookId, [stub.record]);
  }
  return { place: 'queued', count: eventIds.length, eventIds, held };
}

/**
 * Events the fence refused: a worker about to send one found a tag of a running erasure in the hook's set and
 * recorded it `erased` instead (attempt-mark.lua, then attempt-finish.lua). They are this erasure's too when
 * they carry one of its tags, and the `queued` count includes them.
 *
 * How the count reaches the right erasure. The worker knows only that a tag matched, not whose: the script
 * that records the `erased` outcome (and completes the job) writes, in the same step, an entry beside the hook
 * (keys.hookErasedByFence: job id -> the event id and all its tags, hashes only). This step runs once the hook
 * has no active job of a matching event (after the fence's last look, ACTIVE_GONE), when every such entry of
 * this erasure is written; new matching events are refused at the door and none is left waiting. For each
 * entry with one of its tags it adds `<hook> <job>` to the erasure's own set (keys.erasureFenceCounted) and
 * the event id to its events (for the idempotency keys and hook records), and only then removes the entry
 * from the hook: a runner killed anywhere in between leaves each entry either still beside the hook or already
 * in the set, and the one that takes over (from the counts saved before this step) counts the set, so each
 * record counts once. An entry two erasures' tags match (a call between two erased numbers) is counted by the
 * one that gets here first; the other finds it gone. Not counted twice with the other steps: an entry exists
 * only for a job the worker completed with its `erased` record, which the queue steps never see (they remove
 * waiting jobs, or active ones whose holder is gone and whose record is then refused), and the record it wrote
 * holds no field the outbox and database steps could match.
 */
export async function countFenceErased(d: StepDeps, s: StepInput): Promise<StepResult> {
  const mine = new Set(d.erasures.tagsOf(s.target));
  const counted = d.keys.erasureFenceCounted(s.accountId, s.erasureId);
  for (const hookId of await hooksOf(d, s.accountId)) {
    const key = d.keys.hookErasedByFence(hookId);
    let cursor = '0';
    do {
      const [next, flat] = await d.redis.hscan(key, cursor, 'COUNT', WINDOW);
      cursor = next;
      const jobIds: string[] = [];
      const eventIds: string[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const [eventId, ...tags] = flat[i + 1]!.split(' ');
        if (!eventId || !tags.some((tag) => mine.has(tag))) continue;
        jobIds.push(flat[i]!);
        eventIds.push(eventId);
      }
      if (jobIds.length === 0) continue;
      await d.redis
        .multi()
        .sadd(counted, ...jobIds.map((jobId) => `${hookId} ${jobId}`))
        .pexpire(counted, ERASURE_FENCE_TTL_MS)
        .exec();
      await d.erasures.addEvents(s.accountId, s.erasureId, eventIds);
      await d.redis.hdel(key, ...jobIds);
    } while (cursor !== '0');
  }
  return { place: 'queued', count: await d.redis.scard(counted), eventIds: [] };
}

/** Finished jobs BullMQ keeps for the admin area: their data is replaced by ids only. */
export async function eraseRetained(d: StepDeps, s: StepInput): Promise<StepResult> {
  const eventIds: string[] = [];
  for (const hookId of await hooksOf(d, s.accountId)) {
    const stub = JSON.stringify({ erased: true, accountId: s.accountId, hookId });
    for (const set of ['completed', 'failed'] as const)
      for (let cursor = 0; cursor >= 0;) {
        const window = await d.hookQueues.eraseRetainedWindow(hookId, set, s.target, cursor, WINDOW, stub);
        cursor = window.next;
        eventIds.push(...window.eventIds);
      }
  }
  return { place: 'retained', count: eventIds.length, eventIds };
}

/** Records not yet in the database: emptied in place, in each hook's outbox. */
export async function eraseOutboxes(d: StepDeps, s: StepInput): Promise<StepResult> {
  const eventIds: string[] = [];
  const at = d.clock().toISOString();
  for (const hookId of await hooksOf(d, s.accountId))
    for (let cursor = 0; cursor >= 0;) {
      const [next, ...ids] = (await SCRIPTS.eraseOutbox.run(
        d.redis,
        [d.keys.hookHistoryOutbox(hookId), d.keys.hookHistoryOutboxErasures(hookId)],
        [s.target.kind, s.target.value, cursor, WINDOW, at, OUTBOX_IDLE_TTL_MS, personalArg(s.target)],
      )) as [number, ...string[]];
      cursor = Number(next);
      eventIds.push(...ids);
    }
  return { place: 'outboxes', count: eventIds.length, eventIds };
}

export async function eraseDatabase(d: StepDeps, s: StepInput): Promise<StepResult> {
  const eventIds = await eraseHistory(d.sql, s.accountId, s.target, d.clock());
  return { place: 'history', count: eventIds.length, eventIds };
}

/**
 * Idempotency keys whose remembered answer names an erased event (the key itself may be a call's id), or
 * carries one of the erasure's tags: an event no hook got is in no queue and no record, so no other step finds
 * its id, and its answer keeps its tags instead (inbox-accept.lua).
 *
 * Found by SCAN on every master: SCAN walks one server's keys, and a Redis Cluster client sends it to one
 * node, so on a Cluster each master is scanned in turn (`nodes('master')`; a single server is its own only
 * master). An index of the fingerprints per account would find them without scanning, but it would cost every
 * event published with an idempotency key another entry for its 24 h, to serve a rare request; and it would
 * miss keys written before it existed. The scan looks only at key names matching the account's pattern, a
 * thousand a call, and runs in the monitor, so an erasure on a large keyspace takes longer, nothing else.
 */
export async function eraseIdempotency(
  d: Pick<StepDeps, 'redis' | 'keys' | 'erasures'>,
  s: StepInput,
): Promise<StepResult> {
  const erased = await d.erasures.events(s.accountId, s.erasureId);
  const mine = new Set(d.erasures.tagsOf(s.target));
  let count = 0;
  for (const node of mastersOf(d.redis)) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(
        cursor,
        'MATCH',
        d.keys.accountIdempotencyPattern(s.accountId),
        'COUNT',
        1000,
      );
      cursor = next;
      // Read and deleted through the main client, which follows the key's slot wherever it has moved.
      for (const key of keys) {
        const answer = await d.redis.get(key);
        const id = answer && /"id":"([^"]+)"/.exec(answer)?.[1];
        const tags = (answer && /"tags":"([^"]*)"/.exec(answer)?.[1]?.split(' ')) || [];
        if ((id && erased.has(id)) || tags.some((tag) => mine.has(tag))) count += await d.redis.del(key);
      }
    } while (cursor !== '0');
  }
  return { place: 'idempotency', count, eventIds: [] };
}

/** Hook records quoting erased events among a suspension's failures (the website's banner). */
export async function eraseHookRecords(d: StepDeps, s: StepInput): Promise<StepResult> {
  const erased = await d.erasures.events(s.accountId, s.erasureId);
  let count = 0;
  if (erased.size > 0)
    for (const hookId of await hooksOf(d, s.accountId))
      if (await d.erasures.cleanSuspensionFailures(hookId, erased)) count += 1;
  return { place: 'hooks', count, eventIds: [] };
}
