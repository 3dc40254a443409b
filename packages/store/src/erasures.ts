import {
  BUILT_IN_CATALOG,
  erasedDelivery,
  newId,
  personalFields,
  type EventCatalog,
  NO_COUNTS,
  type Clock,
  type DeliveryRecord,
  type ErasureCounts,
  type ErasureTags,
  type ErasureTarget,
  newAuditId,
  type AuditActor,
  type AuditEntry,
} from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import type { Redis } from 'ioredis';
import type { RedisActivityFeed } from './activity-feed';
import { execOrThrow } from './capped-list';
import { isIdOf } from './id-guard';
import { STORE_SCRIPTS } from './scripts';
import type { SecretBox } from './secret-box';

// Erasures of personal data (product.md §18) as records: who asked, how far it got, how many records each
// place had. What is erased (the call id or number) is kept only while the erasure runs, sealed with the
// secret key (no key in Redis holds it in clear), and dropped when it is done; the fence in each hook's slot
// holds a keyed hash of it (core's ErasureTags), also only while it runs.

/**
 * How long a fence tag (and an `erased` record's entry for its erasure's count) may outlive an erasure that never
 * finishes (its runner keeps finishing it anyway).
 */
export const ERASURE_FENCE_TTL_MS = 7 * 24 * 3600 * 1000;

export interface ErasureView {
  readonly id: string;
  readonly account_id: string;
  readonly state: 'running' | 'done';
  /** What the erasure matched on, never the value. */
  readonly by: 'call_id' | 'number';
  readonly requested_by: string;
  readonly requested_at: string;
  readonly done_at?: string;
  readonly counts: ErasureCounts;
}

/** A running erasure as its runner reads it: where it stands and what it erases. */
export interface ErasureWork {
  readonly view: ErasureView;
  readonly target: ErasureTarget;
  /** The steps done so far (the runner's numbering). */
  readonly step: number;
}

/** Who asked for an erasure, as the audit log names them: its `erasure.done` entry names them again. */
export interface ErasureAsker {
  readonly actor: AuditActor;
  readonly address?: string;
}

const context = (erasureId: string) => `${erasureId}:target`;

export class RedisErasures {
  constructor(
    private readonly deps: {
      readonly redis: Redis;
      readonly keys: RedisKeys;
      readonly secretBox: SecretBox;
      readonly activity: RedisActivityFeed;
      readonly clock: Clock;
      readonly erasureTags: ErasureTags;
      /** The operator's catalogue: its personal fields are matched by an erasure by number. */
      readonly catalog?: EventCatalog;
    },
  ) {}

  /** The tags the erasure marks in the fence, and which an event's or an idempotency answer's are matched to. */
  tagsOf(target: ErasureTarget): string[] {
    return this.deps.erasureTags.ofErasure(target);
  }

  /**
   * Accepts an erasure. The fence comes first: once every hook of the account has the tag, no worker starts a
   * request of a matching event; only then is the erasure recorded and queued for its runner, and answered.
   */
  async request(
    accountId: string,
    asked: ErasureTarget,
    actor: string,
    asker?: ErasureAsker,
  ): Promise<ErasureView> {
    const { redis, keys } = this.deps;
    const id = newId('ers');
    // The catalogue's personal fields are fixed now and kept with the erasure: a monitor that resumes it (with
    // another version of the file, during a deploy) erases what the fence was set for.
    const personal = personalFields(this.deps.catalog ?? BUILT_IN_CATALOG);
    const target: ErasureTarget =
      asked.kind === 'number' && Object.keys(personal).length > 0 ? { ...asked, personal } : asked;
    const tags = this.tagsOf(target);
    const hookIds = await redis.smembers(keys.accountHooks(accountId));
    // Each hook's set is in the hook's slot: one small script per hook, sent together.
    await Promise.all(
      hookIds.map((hookId) =>
        STORE_SCRIPTS.erasureFenceUp.run(redis, fenceKeys(keys, hookId), [ERASURE_FENCE_TTL_MS, ...tags]),
      ),
    );
    const now = this.deps.clock();
    // The record and its activity entry commit together: a reader who sees one sees the other.
    const tx = redis.multi().hset(keys.erasure(accountId, id), {
      id,
      account_id: accountId,
      state: 'running',
      by: target.kind,
      requested_by: actor,
      requested_at: now.toISOString(),
      step: '0',
      counts: JSON.stringify(NO_COUNTS),
      target_sealed: this.deps.secretBox.seal(JSON.stringify(target), context(id)),
      ...(asker ? { asked_by: JSON.stringify(asker) } : {}),
    });
    await execOrThrow(
      this.deps.activity.appendInto(tx, accountId, {
        kind: 'erasure.requested',
        at: now.toISOString(),
        actor,
        detail: `erasure ${id} by ${target.kind === 'call_id' ? 'call id' : 'number'}`,
      }),
    );
    await redis.zadd(keys.erasuresRunning(), now.getTime(), `${accountId}/${id}`);
    return (await this.get(accountId, id))!;
  }

  async get(accountId: string, erasureId: string): Promise<ErasureView | undefined> {
    if (!isIdOf('ers', erasureId) || !isIdOf('acct', accountId)) return undefined;
    const raw = await this.deps.redis.hgetall(this.deps.keys.erasure(accountId, erasureId));
    return raw.id === erasureId ? toView(raw) : undefined;
  }

  /** Erasures accepted and not done, oldest first. */
  async running(limit = 100): Promise<{ accountId: string; id: string }[]> {
    const members = await this.deps.redis.zrange(this.deps.keys.erasuresRunning(), 0, limit - 1);
    return members.map((member) => {
      const [accountId, id] = member.split('/');
      return { accountId: accountId!, id: id! };
    });
  }

  /** Takes (or keeps) the erasure for `holder` until `ms` from now; false when another holder has it. */
  async lease(erasureId: string, holder: string, ms: number): Promise<boolean> {
    const key = this.deps.keys.erasureLease(erasureId);
    if ((await this.deps.redis.set(key, holder, 'PX', ms, 'NX')) === 'OK') return true;
    if ((await this.deps.redis.get(key)) !== holder) return false;
    await this.deps.redis.pexpire(key, ms);
    return true;
  }

  async release(erasureId: string, holder: string): Promise<void> {
    const key = this.deps.keys.erasureLease(erasureId);
    if ((await this.deps.redis.get(key)) === holder) await this.deps.redis.del(key);
  }

  async work(accountId: string, erasureId: string): Promise<ErasureWork | undefined> {
    const raw = await this.deps.redis.hgetall(this.deps.keys.erasure(accountId, erasureId));
    if (raw.id !== erasureId || raw.state !== 'running' || !raw.target_sealed) return undefined;
    const target = JSON.parse(
      this.deps.secretBox.open(raw.target_sealed, context(erasureId)),
    ) as ErasureTarget;
    return { view: toView(raw), target, step: Number(raw.step ?? '0') };
  }

  /** A step is done: its number and the counts so far, written together (a restart resumes after it). */
  async progress(accountId: string, erasureId: string, step: number, counts: ErasureCounts): Promise<void> {
    await this.deps.redis.hset(this.deps.keys.erasure(accountId, erasureId), {
      step: String(step),
      counts: JSON.stringify(counts),
    });
  }

  /** Remembers the ids of events erased so far (ids only): the idempotency step looks for them. */
  async addEvents(accountId: string, erasureId: string, eventIds: readonly string[]): Promise<void> {
    if (eventIds.length === 0) return;
    const key = this.deps.keys.erasureEvents(accountId, erasureId);
    await this.deps.redis
      .multi()
      .sadd(key, ...eventIds)
      .pexpire(key, ERASURE_FENCE_TTL_MS)
      .exec();
  }

  async events(accountId: string, erasureId: string): Promise<Set<string>> {
    return new Set(await this.deps.redis.smembers(this.deps.keys.erasureEvents(accountId, erasureId)));
  }

  /**
   * Drops what a suspension recorded of erased events from the hook's record (the banner's failures quote
   * call ids and responses): those records keep their ids, time and outcome. Returns whether it changed.
   */
  async cleanSuspensionFailures(hookId: string, eventIds: ReadonlySet<string>): Promise<boolean> {
    const key = this.deps.keys.hookRecord(hookId);
    const raw = await this.deps.redis.hget(key, 'suspension_failures');
    if (!raw) return false;
    const failures = JSON.parse(raw) as DeliveryRecord[];
    let changed = false;
    const cleaned = failures.map((record): DeliveryRecord => {
      if (!eventIds.has(record.event_id)) return record;
      changed = true;
      return erasedDelivery(record, this.deps.clock());
    });
    // Only while the record exists: a hook deleted meanwhile is not brought back as a half record.
    if (changed && (await this.deps.redis.exists(key)))
      await this.deps.redis.hset(key, 'suspension_failures', JSON.stringify(cleaned));
    return changed;
  }

  /**
   * A done erasure still in the runner's queue (`finish` leaves it there): its `erasure.done` audit entry while
   * that is not written. Undefined while the erasure runs, or when it is unknown.
   */
  async unclosed(accountId: string, erasureId: string): Promise<{ readonly audit?: AuditEntry } | undefined> {
    const [state, pending] = await this.deps.redis.hmget(
      this.deps.keys.erasure(accountId, erasureId),
      'state',
      'audit_pending',
    );
    if (state !== 'done') return undefined;
    return pending ? { audit: JSON.parse(pending) as AuditEntry } : {};
  }

  /** The done erasure's audit entry is written: it leaves the runner's queue. */
  async closeDone(accountId: string, erasureId: string): Promise<void> {
    const { redis, keys } = this.deps;
    await redis.hdel(keys.erasure(accountId, erasureId), 'audit_pending');
    await redis.zrem(keys.erasuresRunning(), `${accountId}/${erasureId}`);
  }

  /**
   * The erasure is done: the fence comes down, what it erased is forgotten, and the record says so with its
   * counts (also in the account's activity: how many, never what). Its `erasure.done` audit entry is made here,
   * kept in the record with the change to done (one transaction), and written by the runner afterwards
   * (`unclosed`, `closeDone`): the erasure stays in the runner's queue until then, so a runner killed after
   * this leaves the entry, with its id, to the one that takes over.
   */
  async finish(
    accountId: string,
    erasureId: string,
    target: ErasureTarget,
    counts: ErasureCounts,
  ): Promise<void> {
    const { redis, keys } = this.deps;
    const tags = this.tagsOf(target);
    const hookIds = await redis.smembers(keys.accountHooks(accountId));
    // Down only where no other running erasure (one of the same target) still needs the same tags.
    await Promise.all(
      hookIds.map((hookId) => STORE_SCRIPTS.erasureFenceDown.run(redis, fenceKeys(keys, hookId), tags)),
    );
    const now = this.deps.clock();
    const at = now.toISOString();
    const asker = await redis.hget(keys.erasure(accountId, erasureId), 'asked_by');
    // An erasure accepted without who asked (only through the store itself) has no entry to write.
    const audit: AuditEntry | undefined = asker
      ? {
          id: newAuditId(now.getTime()),
          at,
          account_id: accountId,
          action: 'erasure.done',
          ...(JSON.parse(asker) as ErasureAsker),
          detail: { erasure_id: erasureId, by: target.kind, counts },
        }
      : undefined;
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    // `done` and its activity entry commit together: once the state reads `done`, nothing is left to run
    // that could still write the entry, so a crash between two writes would lose it for good.
    const tx = redis
      .multi()
      .hset(keys.erasure(accountId, erasureId), {
        state: 'done',
        done_at: at,
        counts: JSON.stringify(counts),
        ...(audit ? { audit_pending: JSON.stringify(audit) } : {}),
      })
      .hdel(keys.erasure(accountId, erasureId), 'target_sealed')
      .del(keys.erasureEvents(accountId, erasureId), keys.erasureFenceCounted(accountId, erasureId));
    await execOrThrow(
      this.deps.activity.appendInto(tx, accountId, {
        kind: 'erasure.done',
        at,
        actor: 'monitor',
        detail: `erasure ${erasureId} done: ${total} records erased (${describeCounts(counts)})`,
      }),
    );
    // With no entry to write, nothing keeps it in the runner's queue.
    if (!audit) await redis.zrem(keys.erasuresRunning(), `${accountId}/${erasureId}`);
  }
}

const fenceKeys = (keys: RedisKeys, hookId: string) => [
  keys.hookErasing(hookId),
  keys.hookErasingCounts(hookId),
];

export function describeCounts(counts: ErasureCounts): string {
  return Object.entries(counts)
    .map(([place, n]) => `${place} ${n}`)
    .join(', ');
}

function toView(raw: Record<string, string>): ErasureView {
  return {
    id: raw.id!,
    account_id: raw.account_id ?? '',
    state: raw.state === 'done' ? 'done' : 'running',
    by: raw.by === 'call_id' ? 'call_id' : 'number',
    requested_by: raw.requested_by ?? '',
    requested_at: raw.requested_at ?? '',
    ...(raw.done_at ? { done_at: raw.done_at } : {}),
    counts: { ...NO_COUNTS, ...(JSON.parse(raw.counts ?? '{}') as Partial<ErasureCounts>) },
  };
}
