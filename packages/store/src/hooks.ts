import {
  ALL_EVENTS,
  BUILT_IN_CATALOG,
  HooklineError,
  hookInputSchemas,
  newId,
  isSigningSecret,
  newSigningSecret,
  notFound,
  rotatedKeys,
  validationError,
  zodProblems,
  type CreateHookInput,
  type EventCatalog,
  type HookEvents,
  type HookView,
  type HookWithSecret,
  type UpdateHookInput,
  type Clock,
} from '@hookline/core';
import { EgressWaits, type RedisKeys } from '@hookline/redis';
import { STORE_SCRIPTS } from './scripts';
import type { Redis } from 'ioredis';
import type { RedisActivityFeed } from './activity-feed';
import { execOrThrow } from './capped-list';
import type { HookQueueAdmin, HookTarget, Hooks, SuspensionInfo } from './contracts';
import {
  authFields,
  eventsFromField,
  eventsToField,
  HEADERS_FIELD,
  openSigningKeys,
  TLS_FIELDS,
  tlsFields,
  parseStoredHook,
  SIGNING_FIELDS,
  signingFields,
  SUSPENSION_FIELDS,
  suspensionFields,
  toHookTarget,
  toHookView,
  toSuspensionInfo,
  type StoredHook,
} from './hook-record';
import { checkFilter, HookFilters } from './hook-filters';
import { isIdOf } from './id-guard';
import type { SecretBox } from './secret-box';

export interface HooksDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly secretBox: SecretBox;
  readonly hookQueues: HookQueueAdmin;
  readonly activity: RedisActivityFeed;
  readonly clock: Clock;
  /** The event kinds hooks may subscribe to; call_created alone when absent. */
  readonly catalog?: EventCatalog; /** HOOKLINE_EVENT_TYPE_HEADER, which no extra header may name; the default when absent. */
  readonly eventTypeHeader?: string;
}

/**
 * Hooks in Redis: a hash per hook, indexed per account and globally; each hook owns one BullMQ queue. What a
 * hook subscribes to lives in its account's hook-events hash (the account's slot), where routing reads it.
 */
export class RedisHooks implements Hooks {
  private readonly schemas: ReturnType<typeof hookInputSchemas>;
  private readonly filters: HookFilters;
  private readonly egressWaits: EgressWaits;

  constructor(private readonly deps: HooksDeps) {
    this.schemas = hookInputSchemas(deps.catalog ?? BUILT_IN_CATALOG, {
      ...(deps.eventTypeHeader ? { eventTypeHeader: deps.eventTypeHeader } : {}),
      now: deps.clock,
    });
    this.filters = new HookFilters(deps.redis, deps.keys);
    this.egressWaits = new EgressWaits(deps.redis, deps.keys);
  }

  async create(accountId: string, input: CreateHookInput, actor: string): Promise<HookWithSecret> {
    const parsed = this.schemas.create.safeParse(input);
    if (!parsed.success) throw validationError(zodProblems(parsed.error));
    const { redis, keys, hookQueues, activity } = this.deps;
    if (!isIdOf('acct', accountId) || !(await redis.exists(keys.accountRecord(accountId))))
      throw notFound('Account');
    const hook = parsed.data;
    checkFilter(hook.filter, hook.events, this.deps.catalog ?? BUILT_IN_CATALOG);
    const id = newId('hk');
    const now = this.now();
    const secret = hook.signing ? newSigningSecret() : undefined;
    const record: Record<string, string> = {
      id,
      account_id: accountId,
      url: hook.url,
      format: hook.format,
      ...authFields(this.deps.secretBox, id, hook.auth),
      ...(hook.description !== undefined ? { description: hook.description } : {}),
      ...(secret ? signingFields(this.deps.secretBox, id, { current: secret }) : {}),
      ...(hook.headers && Object.keys(hook.headers).length > 0
        ? { [HEADERS_FIELD]: JSON.stringify(hook.headers) }
        : {}),
      ...(hook.tls ? tlsFields(this.deps.secretBox, id, hook.tls) : {}),
      created_at: now,
      updated_at: now,
      version: '1',
    };
    // The queue first: once the hook is in the account's index, producers enqueue to it, and its events must
    // never run without the concurrency-1 limit. The hook's keys, the global index and the account's keys
    // live on different shards of a Redis Cluster, so they are written in steps, the account's index last:
    // that step makes the hook visible. If a step fails, everything is taken back; a crash between steps
    // leaves a record that nothing lists and no answer named.
    await hookQueues.setUp(id);
    try {
      await redis.hset(keys.hookRecord(id), record);
      await redis.sadd(keys.allHooks(), id);
      // The subscription with the index entry, in one step: no event is routed to the hook without it.
      const tx = redis
        .multi()
        .sadd(keys.accountHooks(accountId), id)
        .hset(keys.accountHookEvents(accountId), id, eventsToField(hook.events ?? ALL_EVENTS));
      this.filters.setInto(tx, accountId, id, hook.filter);
      activity.appendInto(tx, accountId, { kind: 'hook.created', at: now, hook_id: id, actor });
      await execOrThrow(tx);
    } catch (error) {
      // EXEC does not roll back: one failed command (a key of the wrong type) leaves the others applied.
      await this.unindex(accountId, id).catch(() => undefined);
      await this.dropHookKeys(id).catch(() => undefined);
      await hookQueues.remove(id).catch(() => undefined);
      throw error;
    }
    const created = await this.get(accountId, id);
    if (!created) throw new Error(`hook ${id} vanished right after it was created`);
    return secret ? { ...created, signing_secret: secret } : created;
  }

  async get(accountId: string, hookId: string): Promise<HookView | undefined> {
    const hook = await this.readOwned(accountId, hookId);
    if (!hook) return undefined;
    const [paused, events, failing, filter, egressWait] = await Promise.all([
      this.deps.hookQueues.isPaused(hookId),
      this.deps.redis.hget(this.deps.keys.accountHookEvents(accountId), hookId),
      this.failing(hookId),
      this.filters.get(accountId, hookId),
      this.egressWaits.get(hookId),
    ]);
    const view = toHookView(hook, paused, eventsFromField(events), this.deps.clock, failing, egressWait);
    return filter ? { ...view, filter } : view;
  }

  /** The monitor marks a streak that reached half the suspension threshold (`warned` on the hook's streak). */
  private async failing(hookId: string): Promise<boolean> {
    return (await this.deps.redis.hexists(this.deps.keys.hookStreak(hookId), 'warned')) === 1;
  }

  async list(accountId: string): Promise<HookView[]> {
    const ids = await this.listIds(accountId);
    if (ids.length === 0) return [];
    // Sent together, not pipelined: the hooks may live on different shards of a Redis Cluster.
    const raws = await Promise.all(ids.map((id) => this.deps.redis.hgetall(this.deps.keys.hookRecord(id))));
    const hooks = ids
      .map((id, i) => parseStoredHook(id, raws[i] ?? {}))
      .filter((hook): hook is StoredHook => hook?.account_id === accountId);
    if (hooks.length === 0) return [];
    const [paused, events, failing, filters, egressWaits] = await Promise.all([
      this.deps.hookQueues.pausedMany(hooks.map((hook) => hook.id)),
      this.deps.redis.hmget(this.deps.keys.accountHookEvents(accountId), ...hooks.map((hook) => hook.id)),
      Promise.all(hooks.map((hook) => this.failing(hook.id))),
      this.filters.many(
        accountId,
        hooks.map((hook) => hook.id),
      ),
      Promise.all(hooks.map((hook) => this.egressWaits.get(hook.id))),
    ]);
    return hooks
      .map((hook, i) => {
        const view = toHookView(
          hook,
          paused[i] ?? false,
          eventsFromField(events[i]),
          this.deps.clock,
          failing[i] ?? false,
          egressWaits[i],
        );
        const filter = filters[i];
        return filter ? { ...view, filter } : view;
      })
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  async update(
    accountId: string,
    hookId: string,
    input: UpdateHookInput,
    actor: string,
  ): Promise<HookWithSecret | undefined> {
    const parsed = this.schemas.update.safeParse(input);
    if (!parsed.success) throw validationError(zodProblems(parsed.error));
    const change = parsed.data;
    const stored = await this.readOwned(accountId, hookId);
    if (!stored) return undefined;
    if (change.events !== undefined || change.filter !== undefined)
      await this.checkChangedFilter(accountId, hookId, change);
    const now = this.now();
    const set: Record<string, string> = { updated_at: now };
    const remove: string[] = [];
    // `signing: true` on a hook that signs already changes nothing: a new secret without the 24 h overlap
    // would break its receiver, and rotating is its own, explicit call.
    const secret = change.signing === true && !stored.signing_sealed ? newSigningSecret() : undefined;
    if (secret) Object.assign(set, signingFields(this.deps.secretBox, hookId, { current: secret }));
    if (change.signing === false) remove.push(...SIGNING_FIELDS);
    if (change.url !== undefined) set.url = change.url;
    if (change.format !== undefined) set.format = change.format;
    if (change.auth !== undefined) Object.assign(set, authFields(this.deps.secretBox, hookId, change.auth));
    if (typeof change.description === 'string') set.description = change.description;
    if (change.description === null) remove.push('description');
    if (change.headers !== undefined && Object.keys(change.headers).length > 0)
      set[HEADERS_FIELD] = JSON.stringify(change.headers);
    if (change.headers !== undefined && Object.keys(change.headers).length === 0) remove.push(HEADERS_FIELD);
    if (change.tls) Object.assign(set, tlsFields(this.deps.secretBox, hookId, change.tls));
    if (change.tls === null) remove.push(...TLS_FIELDS);
    if ((await this.change(hookId, accountId, true, remove, set)) < 0) return undefined;
    if (change.events !== undefined && !(await this.setEvents(accountId, hookId, change.events)))
      return undefined;
    if (change.filter !== undefined && !(await this.filters.set(accountId, hookId, change.filter)))
      return undefined;
    // Names of the changed fields only: values (URLs may carry tokens) stay out of the feed.
    const detail = Object.keys(change).join(', ');
    await this.deps.activity.append(accountId, {
      kind: 'hook.updated',
      at: now,
      hook_id: hookId,
      actor,
      detail,
    });
    const updated = await this.get(accountId, hookId);
    return updated && secret ? { ...updated, signing_secret: secret } : updated;
  }

  async rotateSigningSecret(
    accountId: string,
    hookId: string,
    actor: string,
  ): Promise<HookWithSecret | undefined> {
    const stored = await this.readOwned(accountId, hookId);
    if (!stored) return undefined;
    const keys = openSigningKeys(stored, this.deps.secretBox);
    if (!keys)
      throw new HooklineError(
        'CONFLICT',
        'This hook does not sign its requests; turn signing on (signing: true) to get a secret',
      );
    const clock = this.deps.clock();
    const secret = newSigningSecret();
    const set = {
      ...signingFields(this.deps.secretBox, hookId, rotatedKeys(keys, secret, clock)),
      updated_at: clock.toISOString(),
    };
    // The version bump makes every worker re-read the hook: the new secret signs from the next request on.
    if ((await this.change(hookId, accountId, true, [], set)) < 0) return undefined;
    await this.deps.activity.append(accountId, {
      kind: 'hook.updated',
      at: set.updated_at,
      hook_id: hookId,
      actor,
      detail: 'signing secret rotated',
    });
    const updated = await this.get(accountId, hookId);
    return updated && { ...updated, signing_secret: secret };
  }

  async setSigningSecret(accountId: string, hookId: string, secret: string, actor: string): Promise<boolean> {
    if (!isSigningSecret(secret))
      throw new HooklineError(
        'VALIDATION_FAILED',
        'A signing secret is whsec_ followed by base64 of 32 bytes',
      );
    const stored = await this.readOwned(accountId, hookId);
    if (!stored) return false;
    const current = openSigningKeys(stored, this.deps.secretBox);
    if (current?.current === secret && !current.previous) return true;
    const set = {
      ...signingFields(this.deps.secretBox, hookId, { current: secret }),
      updated_at: this.now(),
    };
    if ((await this.change(hookId, accountId, true, [...SIGNING_FIELDS], set)) < 0) return false;
    await this.deps.activity.append(accountId, {
      kind: 'hook.updated',
      at: set.updated_at,
      hook_id: hookId,
      actor,
      detail: 'signing secret set',
    });
    return true;
  }

  /** The filter the hook will have, against the kinds it will get: either may change without the other. */
  private async checkChangedFilter(
    accountId: string,
    hookId: string,
    change: UpdateHookInput,
  ): Promise<void> {
    const events =
      change.events ??
      eventsFromField(await this.deps.redis.hget(this.deps.keys.accountHookEvents(accountId), hookId));
    const filter =
      change.filter !== undefined ? (change.filter ?? undefined) : await this.filters.get(accountId, hookId);
    checkFilter(filter, events, this.deps.catalog ?? BUILT_IN_CATALOG);
  }

  /** False when the hook left the account's index meanwhile (deleted): nothing is written then. */
  private async setEvents(accountId: string, hookId: string, events: HookEvents): Promise<boolean> {
    const { keys } = this.deps;
    const result = await STORE_SCRIPTS.hookEventsSet.run(
      this.deps.redis,
      [keys.accountHooks(accountId), keys.accountHookEvents(accountId)],
      [hookId, eventsToField(events)],
    );
    return Number(result) === 1;
  }

  async remove(accountId: string, hookId: string, actor: string): Promise<boolean> {
    if (!(await this.readOwned(accountId, hookId))) return false;
    const { hookQueues, activity } = this.deps;
    // Out of the account's index first (with its feed entry: both in the account's slot), so producers stop
    // fanning out to it; then the global index, the queue and its jobs, and the hook's own keys last. Each
    // step is safe to repeat and the record goes last, so a delete interrupted half-way is finished by
    // deleting again.
    const tx = this.deps.redis
      .multi()
      .srem(this.deps.keys.accountHooks(accountId), hookId)
      .hdel(this.deps.keys.accountHookEvents(accountId), hookId);
    this.filters.removeInto(tx, accountId, hookId);
    activity.appendInto(tx, accountId, { kind: 'hook.deleted', at: this.now(), hook_id: hookId, actor });
    await execOrThrow(tx);
    await this.deps.redis.srem(this.deps.keys.allHooks(), hookId);
    await hookQueues.remove(hookId);
    // After the queue: a delivery that was on the wire during the delete may have logged since.
    await this.dropHookKeys(hookId);
    return true;
  }

  async listIds(accountId: string): Promise<string[]> {
    if (!isIdOf('acct', accountId)) return [];
    return (await this.deps.redis.smembers(this.deps.keys.accountHooks(accountId))).sort();
  }

  async accountOf(hookId: string): Promise<string | undefined> {
    if (!isIdOf('hk', hookId)) return undefined;
    return (await this.deps.redis.hget(this.deps.keys.hookRecord(hookId), 'account_id')) ?? undefined;
  }

  async target(hookId: string): Promise<HookTarget | undefined> {
    const hook = await this.read(hookId);
    return hook && toHookTarget(hook, this.deps.secretBox);
  }

  async suspension(accountId: string, hookId: string): Promise<SuspensionInfo | undefined> {
    const hook = await this.readOwned(accountId, hookId);
    return hook && toSuspensionInfo(hook);
  }

  async recordSuspension(hookId: string, info: SuspensionInfo): Promise<void> {
    if (isIdOf('hk', hookId)) await this.change(hookId, '', false, [], suspensionFields(info));
  }

  async clearSuspension(hookId: string): Promise<void> {
    if (isIdOf('hk', hookId)) await this.change(hookId, '', false, [...SUSPENSION_FIELDS], {});
  }

  private now(): string {
    return this.deps.clock().toISOString();
  }

  /**
   * The hook's record and hook-scoped data: one command, as they share the hook's slot. Its history outbox
   * stays: records of attempts made before the delete still reach the history (the writer empties it).
   */
  private async dropHookKeys(hookId: string): Promise<void> {
    const { keys } = this.deps;
    await this.deps.redis.del(
      keys.hookRecord(hookId),
      keys.hookStreak(hookId),
      keys.hookStreakFailures(hookId),
      keys.hookAttempt(hookId),
      keys.hookErasing(hookId),
      keys.hookEgressWait(hookId),
    );
  }

  /** Takes the hook out of both indexes (each in its own slot). */
  private async unindex(accountId: string, hookId: string): Promise<void> {
    const { redis, keys } = this.deps;
    const results = await Promise.allSettled([
      redis
        .multi()
        .srem(keys.accountHooks(accountId), hookId)
        .hdel(keys.accountHookEvents(accountId), hookId)
        .hdel(keys.accountHookFilters(accountId), hookId)
        .exec(),
      redis.srem(keys.allHooks(), hookId),
    ]);
    for (const result of results) if (result.status === 'rejected') throw result.reason;
  }

  private async change(
    hookId: string,
    accountId: string,
    bumpVersion: boolean,
    remove: readonly string[],
    set: Record<string, string>,
  ): Promise<number> {
    const result = await STORE_SCRIPTS.hookChange.run(
      this.deps.redis,
      [this.deps.keys.hookRecord(hookId)],
      [accountId, bumpVersion ? '1' : '0', String(remove.length), ...remove, ...Object.entries(set).flat()],
    );
    return Number(result);
  }

  private async read(hookId: string): Promise<StoredHook | undefined> {
    if (!isIdOf('hk', hookId)) return undefined;
    return parseStoredHook(hookId, await this.deps.redis.hgetall(this.deps.keys.hookRecord(hookId)));
  }

  /** Another account's hook reads as no hook at all: the API answers 404, never 403. */
  private async readOwned(accountId: string, hookId: string): Promise<StoredHook | undefined> {
    const hook = await this.read(hookId);
    return hook?.account_id === accountId ? hook : undefined;
  }
}
