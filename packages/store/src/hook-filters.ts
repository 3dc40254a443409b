import {
  ALL_EVENTS,
  filterableKinds,
  filterProblems,
  normalFilter,
  validationError,
  type EventCatalog,
  type HookEvents,
  type HookFilter,
} from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import type { ChainableCommander, Redis } from 'ioredis';

// A hook's filter lives in its account's hook-filters hash (the account's slot), beside its subscription,
// where the accept script reads both. Kept apart from hooks.ts: the record, its view and its routing are
// separate concerns, and the filter only routes.

/** A filter as the hash holds it, and back ('' / absent: no filter). */
export const filterToField = (filter: HookFilter | undefined): string =>
  filter ? JSON.stringify(filter) : '';
export const filterFromField = (field: string | null | undefined): HookFilter | undefined =>
  field ? (JSON.parse(field) as HookFilter) : undefined;

/**
 * Throws a 400 naming each field (and operator) at fault when `filter` cannot be met by the kinds a hook
 * subscribed to `events` gets: the schema checked it against every kind, this against the hook's own.
 */
export function checkFilter(
  filter: HookFilter | undefined,
  events: HookEvents | undefined,
  catalog: EventCatalog,
): void {
  if (!filter) return;
  const problems = filterProblems(filter, filterableKinds(events ?? ALL_EVENTS, catalog));
  if (problems.length > 0) throw validationError(problems);
}

export class HookFilters {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Queued into the transaction that indexes a new hook: it never gets an event its filter refuses. */
  setInto(tx: ChainableCommander, accountId: string, hookId: string, filter: HookFilter | undefined): void {
    const normal = normalFilter(filter);
    if (normal) tx.hset(this.keys.accountHookFilters(accountId), hookId, filterToField(normal));
  }

  removeInto(tx: ChainableCommander, accountId: string, hookId: string): void {
    tx.hdel(this.keys.accountHookFilters(accountId), hookId);
  }

  async get(accountId: string, hookId: string): Promise<HookFilter | undefined> {
    return filterFromField(await this.redis.hget(this.keys.accountHookFilters(accountId), hookId));
  }

  async many(accountId: string, hookIds: readonly string[]): Promise<(HookFilter | undefined)[]> {
    if (hookIds.length === 0) return [];
    const raw = await this.redis.hmget(this.keys.accountHookFilters(accountId), ...hookIds);
    return raw.map(filterFromField);
  }
}
