import {
  type Clock,
  DEFAULT_EVENT_TYPE_HEADER,
  type HookEvents,
  type HookFilter,
  type HookView,
  sentExtraHeaders,
} from '@hookline/core';
import { EgressWaits, type RedisKeys } from '@hookline/redis';
import type { Redis } from 'ioredis';
import type { HookQueueAdmin } from './contracts';
import { eventsFromField, parseStoredHook, toHookView, type StoredHook } from './hook-record';
import type { HookRecordAccess } from './hook-record-access';
import type { HookFilters } from './hook-filters';
import type { HookPlace } from './hook-page';

/**
 * A hook as its account sees it: the record with what lives beside it (paused queue, subscribed kinds, the
 * failing mark, filter, a wait on the egress proxy), read together.
 */
export class HookViews {
  private readonly egressWaits: EgressWaits;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly hookQueues: HookQueueAdmin,
    private readonly filters: HookFilters,
    private readonly records: HookRecordAccess,
    private readonly clock: Clock,
    private readonly eventTypeHeader: string = DEFAULT_EVENT_TYPE_HEADER,
  ) {
    this.egressWaits = new EgressWaits(redis, keys);
  }

  /**
   * The view with its filter and the extra headers as sent: one a hook was given before the operator gave the
   * event-type header its name is not sent (the event's kind is), so no answer or page shows it.
   */
  private shown(view: HookView, filter: HookFilter | undefined): HookView {
    const { headers, ...rest } = view;
    const sent = sentExtraHeaders(headers, this.eventTypeHeader);
    return { ...rest, ...(sent ? { headers: sent } : {}), ...(filter ? { filter } : {}) };
  }

  async get(accountId: string, hookId: string): Promise<HookView | undefined> {
    const hook = await this.records.readOwned(accountId, hookId);
    if (!hook) return undefined;
    const [events, filter] = await Promise.all([
      this.redis.hget(this.keys.accountHookEvents(accountId), hookId),
      this.filters.get(accountId, hookId),
    ]);
    return this.viewOf(hook, eventsFromField(events), filter);
  }

  /**
   * The view of a record and the subscription and filter given, with the hook's state read now (paused, failing,
   * a wait on the egress proxy): what a change answers, from the record it wrote, not one read after it.
   */
  async viewOf(hook: StoredHook, events: HookEvents, filter: HookFilter | undefined): Promise<HookView> {
    const [paused, failing, egressWait] = await Promise.all([
      this.hookQueues.isPaused(hook.id),
      this.failing(hook.id),
      this.egressWaits.get(hook.id),
    ]);
    return this.shown(toHookView(hook, paused, events, this.clock, failing, egressWait), filter);
  }

  /** Hooks of the listed ids that belong to the account, oldest first. */
  async list(accountId: string, ids: readonly string[]): Promise<HookView[]> {
    if (ids.length === 0) return [];
    // Sent together, not pipelined: the hooks may live on different shards of a Redis Cluster.
    const raws = await Promise.all(ids.map((id) => this.redis.hgetall(this.keys.hookRecord(id))));
    const hooks = ids
      .map((id, i) => parseStoredHook(id, raws[i] ?? {}))
      .filter((hook): hook is StoredHook => hook?.account_id === accountId);
    if (hooks.length === 0) return [];
    const hookIds = hooks.map((hook) => hook.id);
    const [paused, events, failing, filters, egressWaits] = await Promise.all([
      this.hookQueues.pausedMany(hookIds),
      this.redis.hmget(this.keys.accountHookEvents(accountId), ...hookIds),
      Promise.all(hookIds.map((id) => this.failing(id))),
      this.filters.many(accountId, hookIds),
      Promise.all(hookIds.map((id) => this.egressWaits.get(id))),
    ]);
    return hooks
      .map((hook, i) => {
        const view = toHookView(
          hook,
          paused[i] ?? false,
          eventsFromField(events[i]),
          this.clock,
          failing[i] ?? false,
          egressWaits[i],
        );
        return this.shown(view, filters[i]);
      })
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  /**
   * Where each of the listed hooks of the account stands in the list's order: two fields a hook, so a page costs
   * reading the order of all of them and the views of its own hooks only.
   */
  async places(accountId: string, ids: readonly string[]): Promise<HookPlace[]> {
    // Sent together, not pipelined, as in `list`.
    const fields = await Promise.all(
      ids.map((id) => this.redis.hmget(this.keys.hookRecord(id), 'account_id', 'created_at')),
    );
    return ids.flatMap((id, i) => {
      const [owner, createdAt] = fields[i] ?? [];
      // A hook deleted since the index was read has no record any more: it is not on the page.
      return owner === accountId && createdAt ? [{ id, createdAt }] : [];
    });
  }

  /** The monitor marks a streak that reached half the suspension threshold (`warned` on the hook's streak). */
  private async failing(hookId: string): Promise<boolean> {
    return (await this.redis.hexists(this.keys.hookStreak(hookId), 'warned')) === 1;
  }
}
