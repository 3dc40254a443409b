import type { Clock } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import type { Redis } from 'ioredis';
import { parseStoredHook, type StoredHook } from './hook-record';
import type { HookUrlIndex } from './hook-url-index';
import { isIdOf } from './id-guard';
import { STORE_SCRIPTS } from './scripts';

/**
 * How long a deleted hook keeps the mark of an attempt in flight, for its outcome to be recorded: far beyond a
 * request's deadline (HOOKLINE_DELIVERY_TIMEOUT_MS) and the outcome's write retries (a job lock's time).
 */
const IN_FLIGHT_MARK_KEPT_MS = 10 * 60_000;

/** What `change` answers when the record is no longer at the version the caller read. */
export const STALE_VERSION = -2;

/**
 * Reads and writes of one hook's record hash, and the keys that live and die with it. Every change goes
 * through one script (hook-change.lua), so a hook deleted meanwhile is never written back.
 */
export class HookRecordAccess {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly clock: Clock,
    private readonly urls: Pick<HookUrlIndex, 'remove'>,
  ) {}

  now(): string {
    return this.clock().toISOString();
  }

  async read(hookId: string): Promise<StoredHook | undefined> {
    if (!isIdOf('hk', hookId)) return undefined;
    return parseStoredHook(hookId, await this.redis.hgetall(this.keys.hookRecord(hookId)));
  }

  /** Another account's hook reads as no hook at all: the API answers 404, never 403. */
  async readOwned(accountId: string, hookId: string): Promise<StoredHook | undefined> {
    const hook = await this.read(hookId);
    return hook?.account_id === accountId ? hook : undefined;
  }

  /**
   * Removes then sets fields of the record, if it exists and (with an account id) belongs to that account;
   * with `bumpVersion` every worker re-reads the hook before its next request. With `ifVersion`, only while the
   * record is still at that version (else STALE_VERSION: read again). Negative: nothing written.
   */
  async change(
    hookId: string,
    accountId: string,
    bumpVersion: boolean,
    remove: readonly string[],
    set: Record<string, string>,
    ifVersion?: number,
  ): Promise<number> {
    const result = await this.runChange(hookId, accountId, bumpVersion, remove, set, ifVersion, false);
    if (typeof result !== 'number') throw new Error(`hook-change answered ${typeof result}, not a number`);
    return result;
  }

  /**
   * A change that bumps the version, answered with the record exactly as it left it (read in the same script):
   * its version and values, not those of a change that landed just after. STALE_VERSION as `change` says;
   * undefined when the hook is gone or not the account's.
   */
  async changeAndRead(
    hookId: string,
    accountId: string,
    remove: readonly string[],
    set: Record<string, string>,
    ifVersion: number,
  ): Promise<StoredHook | typeof STALE_VERSION | undefined> {
    const result = await this.runChange(hookId, accountId, true, remove, set, ifVersion, true);
    if (result === STALE_VERSION) return STALE_VERSION;
    if (typeof result === 'number') return undefined;
    return parseStoredHook(hookId, result);
  }

  private async runChange(
    hookId: string,
    accountId: string,
    bumpVersion: boolean,
    remove: readonly string[],
    set: Record<string, string>,
    ifVersion: number | undefined,
    answerRecord: boolean,
  ): Promise<number | Record<string, string>> {
    const result: unknown = await STORE_SCRIPTS.hookChange.run(
      this.redis,
      [this.keys.hookRecord(hookId)],
      [
        accountId,
        bumpVersion ? '1' : '0',
        ifVersion === undefined ? '' : String(ifVersion),
        answerRecord ? '1' : '0',
        String(remove.length),
        ...remove,
        ...Object.entries(set).flat(),
      ],
    );
    return recordReply(result);
  }

  /**
   * The hook's record and hook-scoped data: one script, as they share the hook's slot. Its history outbox
   * stays: records of attempts made before the delete still reach the history (the writer empties it); so does
   * the mark of an attempt in flight, for a while, so that its outcome is recorded too (hook-keys-drop.lua).
   */
  async dropHookKeys(hookId: string): Promise<void> {
    const { keys } = this;
    await STORE_SCRIPTS.hookKeysDrop.run(
      this.redis,
      [
        keys.hookAttempt(hookId),
        keys.hookRecord(hookId),
        keys.hookStreak(hookId),
        keys.hookStreakFailures(hookId),
        keys.hookErasing(hookId),
        keys.hookErasingCounts(hookId),
        keys.hookErasedByFence(hookId),
        keys.hookEgressWait(hookId),
      ],
      [IN_FLIGHT_MARK_KEPT_MS],
    );
    // The fleet index of egress waits is in another slot: a deleted hook waits on nothing (/readyz counts it).
    await this.redis.zrem(keys.egressWaiting(), hookId);
  }

  /** Takes the hook out of the indexes (each in its own slot). */
  async unindex(accountId: string, hookId: string): Promise<void> {
    const { redis, keys } = this;
    const results = await Promise.allSettled([
      redis
        .multi()
        .srem(keys.accountHooks(accountId), hookId)
        .hdel(keys.accountHookEvents(accountId), hookId)
        .hdel(keys.accountHookFilters(accountId), hookId)
        .hdel(keys.accountHookRoutingVersions(accountId), `${hookId} events`, `${hookId} filter`)
        .exec(),
      redis.srem(keys.allHooks(), hookId),
      this.urls.remove(hookId),
    ]);
    for (const result of results) if (result.status === 'rejected') throw result.reason;
  }
}

/** hook-change.lua's answer: a number, or HGETALL's flat list of fields and values (checked, not cast). */
function recordReply(result: unknown): number | Record<string, string> {
  if (typeof result === 'number') return result;
  if (!Array.isArray(result) || result.length % 2 !== 0 || !result.every((v) => typeof v === 'string'))
    throw new Error('hook-change answered neither a number nor a list of fields and values');
  const fields = result as string[];
  const record: Record<string, string> = {};
  for (let i = 0; i < fields.length; i += 2) record[fields[i]!] = fields[i + 1]!;
  return record;
}
