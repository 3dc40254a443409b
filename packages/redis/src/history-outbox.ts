import { WindowBatch } from '@hookline/core';
import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys';
import { SCRIPTS } from './scripts';

/**
 * How long an outbox nobody drains is kept: a marker is lost only with a crash, and the watchdog puts it
 * back within half the stuck-after time, so this only bounds what a deleted hook could leave behind.
 */
export const OUTBOX_IDLE_TTL_MS = 7 * 24 * 3600 * 1000;

/** Records read from one outbox at a time: a busy hook's backlog is written in slices of this. */
export const OUTBOX_READ_MAX = 500;

/**
 * Records read by one call of the script that reads many hooks (one Redis only): a steady round reads every hook
 * it took in one call, a backlog in slices that each hold Redis about as long as one busy hook's read.
 */
export const OUTBOX_READ_PER_CALL = 2 * OUTBOX_READ_MAX;

/** One hook's unwritten records, oldest first, as read by a writer. */
export interface OutboxSlice {
  readonly hookId: string;
  /** Raw JSON records as the outcome scripts appended them. */
  readonly entries: readonly string[];
  /** The outbox's erasure counter as read with the entries ('' when none): the ack compares it. */
  readonly erasures: string;
}

/** Hooks a writer took for a round, and the mark each had when taken (ms), in the same order. */
export interface HistoryClaim {
  readonly hookIds: string[];
  readonly markedAt: number[];
}

/**
 * The Redis side of the delivery history: each hook's outbox of records not yet in PostgreSQL, and the set
 * of hooks that have some. Outcome scripts append in the hook's slot; the marker is one command more, in
 * the global key's slot (a Redis Cluster cannot do both in one script). Writers take hooks from the set with
 * a hold, so several writers share the work and one that dies gives its hooks back when the hold ends.
 */
export class HistoryOutbox {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Appends records that no delivery script wrote (expired and discarded events), then marks the hook. */
  async append(hookId: string, records: readonly object[]): Promise<void> {
    if (records.length === 0) return;
    const key = this.keys.hookHistoryOutbox(hookId);
    const replies = await this.redis
      .multi()
      .rpush(key, ...records.map((r) => JSON.stringify(r)))
      .pexpire(key, OUTBOX_IDLE_TTL_MS)
      .exec();
    for (const [error] of replies ?? []) if (error) throw error;
    await this.mark([hookId]);
  }

  /**
   * Says these hooks have records to write. `LT` keeps an earlier mark (the lag is measured from it) and
   * lowers a writer's hold to now, so a record appended while a writer drains the hook is not left behind.
   */
  async mark(hookIds: readonly string[], now = Date.now()): Promise<void> {
    if (hookIds.length === 0) return;
    const args: (string | number)[] = [];
    for (const id of hookIds) args.push(now, id);
    await this.redis.zadd(this.keys.historyDirty(), 'LT', ...args);
  }

  /** Marks hooks that have no marker: the watchdog's repair, which leaves a writer's hold alone. */
  async markIfAbsent(hookIds: readonly string[], now = Date.now()): Promise<void> {
    if (hookIds.length === 0) return;
    const args: (string | number)[] = [];
    for (const id of hookIds) args.push(now, id);
    await this.redis.zadd(this.keys.historyDirty(), 'NX', ...args);
  }

  /**
   * Takes up to `count` marked hooks nobody holds, holding them until `holdUntil` (ms), each with the mark it
   * had: since when its records wait.
   */
  async claim(count: number, holdUntil: number, now = Date.now()): Promise<HistoryClaim> {
    const flat = (await SCRIPTS.historyClaim.run(
      this.redis,
      [this.keys.historyDirty()],
      [now, holdUntil, count],
    )) as string[];
    const claim: HistoryClaim = { hookIds: [], markedAt: [] };
    for (let i = 0; i < flat.length; i += 2) {
      claim.hookIds.push(flat[i]!);
      claim.markedAt.push(Number(flat[i + 1]));
    }
    return claim;
  }

  /**
   * Gives back hooks whose round failed (nothing written), each at the mark it had when taken: the lag keeps
   * counting from it while the database refuses writes, instead of from each failed round's hand-back. `LT`
   * keeps a later writer's hold, or an earlier mark, as they are.
   */
  async handBack(claim: HistoryClaim): Promise<void> {
    if (claim.hookIds.length === 0) return;
    const args: (string | number)[] = [];
    claim.hookIds.forEach((id, i) => args.push(claim.markedAt[i]!, id));
    await this.redis.zadd(this.keys.historyDirty(), 'LT', ...args);
  }

  /** Drops the markers of these hooks, unless they were marked again since `claim` held them. */
  async release(hookIds: readonly string[], holdUntil: number): Promise<void> {
    if (hookIds.length === 0) return;
    await SCRIPTS.historyRelease.run(this.redis, [this.keys.historyDirty()], [holdUntil, ...hookIds]);
  }

  /**
   * The oldest records of each hook, at most `max` each. On one Redis the hooks are read by one script call
   * (more when their records pass `perCall`, so that no call holds Redis long); on a Redis Cluster, where their
   * keys live on several shards, by one transaction per hook. Either way a hook's records and its counter are
   * read at the same moment.
   */
  async read(
    hookIds: readonly string[],
    max = OUTBOX_READ_MAX,
    perCall = OUTBOX_READ_PER_CALL,
  ): Promise<OutboxSlice[]> {
    if (this.redis.isCluster) return Promise.all(hookIds.map((hookId) => this.readOne(hookId, max)));
    const slices: OutboxSlice[] = [];
    while (slices.length < hookIds.length) {
      const rest = hookIds.slice(slices.length);
      const read = (await SCRIPTS.historyOutboxRead.run(this.redis, this.outboxKeys(rest), [
        max,
        perCall,
      ])) as [string[], string][];
      read.forEach(([entries, erasures], i) => slices.push({ hookId: rest[i]!, entries, erasures }));
    }
    return slices;
  }

  private async readOne(hookId: string, max: number): Promise<OutboxSlice> {
    // One transaction (one slot): the counter goes with exactly these entries.
    const replies = await this.redis
      .multi()
      .lrange(this.keys.hookHistoryOutbox(hookId), 0, max - 1)
      .get(this.keys.hookHistoryOutboxErasures(hookId))
      .exec();
    for (const [error] of replies ?? []) if (error) throw error;
    const [[, entries], [, erasures]] = replies as [[null, string[]], [null, string | null]];
    return { hookId, entries, erasures: erasures ?? '' };
  }

  /** Each hook's outbox key, then its erasure counter's, in order: the layout of the scripts that span hooks. */
  private outboxKeys(hookIds: readonly string[]): string[] {
    return hookIds.flatMap((id) => [
      this.keys.hookHistoryOutbox(id),
      this.keys.hookHistoryOutboxErasures(id),
    ]);
  }

  /** Every record still waiting for this hook, oldest first: readers show them before the database has them. */
  pending(hookId: string, max = OUTBOX_READ_MAX): Promise<string[]> {
    return this.redis.lrange(this.keys.hookHistoryOutbox(hookId), -max, -1);
  }

  /**
   * Trims each slice's records, written to the database, from its hook's outbox, exactly as read. Returns per slice how many records are left, or -1 when another writer had trimmed them already or
   * an erasure emptied some since they were read (nothing is trimmed then); 0 for a slice with none. On one
   * Redis, one script call; on a Redis Cluster, one per hook.
   */
  async ackAll(slices: readonly OutboxSlice[]): Promise<number[]> {
    const read = slices.filter((s) => s.entries.length > 0);
    let left: number[];
    if (read.length === 0) left = [];
    else if (this.redis.isCluster) left = await Promise.all(read.map((s) => this.ack(s)));
    else {
      const args = read.flatMap((s) => [s.entries.length, s.entries.at(-1)!, s.erasures]);
      const keys = this.outboxKeys(read.map((s) => s.hookId));
      left = ((await SCRIPTS.historyOutboxAckAll.run(this.redis, keys, args)) as number[]).map(Number);
    }
    let next = 0;
    return slices.map((s) => (s.entries.length > 0 ? left[next++]! : 0));
  }

  /** `ackAll` for one slice, by history-outbox-ack.lua (one hook's slot). */
  private async ack(slice: OutboxSlice): Promise<number> {
    const { hookId, entries, erasures } = slice;
    return Number(
      await SCRIPTS.historyOutboxAck.run(
        this.redis,
        [this.keys.hookHistoryOutbox(hookId), this.keys.hookHistoryOutboxErasures(hookId)],
        [entries.length, entries.at(-1)!, erasures],
      ),
    );
  }

  /** Which of these hooks have records waiting: how the watchdog finds markers lost in a crash. */
  async nonEmpty(hookIds: readonly string[]): Promise<string[]> {
    let lengths: number[];
    if (this.redis.isCluster)
      lengths = await Promise.all(hookIds.map((id) => this.redis.llen(this.keys.hookHistoryOutbox(id))));
    else {
      const pipeline = this.redis.pipeline();
      for (const id of hookIds) pipeline.llen(this.keys.hookHistoryOutbox(id));
      lengths = ((await pipeline.exec()) ?? []).map(([error, n]) => {
        if (error) throw error;
        return Number(n);
      });
    }
    return hookIds.filter((_, i) => lengths[i]! > 0);
  }

  /** Since when the longest-waiting marked hook has had records to write (ms), or undefined when none wait. */
  async oldestMark(now = Date.now()): Promise<number | undefined> {
    const [, score] = await this.redis.zrangebyscore(
      this.keys.historyDirty(),
      '-inf',
      now,
      'WITHSCORES',
      'LIMIT',
      0,
      1,
    );
    return score === undefined ? undefined : Number(score);
  }
}

/**
 * Marks hooks for the history writer a few milliseconds after their outcomes, many in one command: a busy
 * hook is marked once per window however many events it delivers. A crash inside the window loses only
 * markers, which the watchdog puts back; the records themselves are already in the outboxes.
 */
export class OutboxMarks {
  private readonly batch: WindowBatch<string>;

  constructor(outbox: HistoryOutbox, onError: (error: unknown) => void, windowMs = 20) {
    this.batch = new WindowBatch((hookIds) => outbox.mark([...new Set(hookIds)]).catch(onError), windowMs);
  }

  add(hookId: string): void {
    this.batch.add(hookId);
  }

  /** Sends what is due now (and waits for any send in progress): on shutdown. */
  flush(): Promise<void> {
    return this.batch.flush();
  }
}
