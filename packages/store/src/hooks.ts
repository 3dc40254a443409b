import {
  ALL_EVENTS,
  BUILT_IN_CATALOG,
  changedHookFields,
  hookInputSchemas,
  newId,
  newSigningSecret,
  normalFilter,
  notFound,
  validationError,
  clientCertificateUrlProblem,
  HooklineError,
  zodProblems,
  type Clock,
  type CreateHookInput,
  type EventCatalog,
  type HookEvents,
  type HookFilter,
  type HookView,
  type HookWithSecret,
  type UpdateHookInput,
} from '@hookline/core';
import { NEVER_SUSPEND_FIELD, type RedisKeys } from '@hookline/redis';
import type { Redis } from 'ioredis';
import type { RedisActivityFeed } from './activity-feed';
import { execOrThrow } from './capped-list';
import type { HookQueueAdmin, HookTarget, Hooks, SuspensionInfo, UrlSearch } from './contracts';
import { checkFilter, HookFilters } from './hook-filters';
import {
  authFields,
  eventsFromField,
  eventsToField,
  HEADERS_FIELD,
  SIGNING_FIELDS,
  signingFields,
  SUSPENSION_FIELDS,
  suspensionFields,
  TLS_FIELDS,
  tlsFields,
  toHookTarget,
  toSuspensionInfo,
  type StoredHook,
} from './hook-record';
import { pageOfPlaces, type HookPage, type HookPageRequest } from './hook-page';
import { HookRecordAccess, STALE_VERSION } from './hook-record-access';
import { HookRouting } from './hook-routing';
import { HookSigningSecrets } from './hook-signing-secrets';
import { HookUrlIndex } from './hook-url-index';
import { findHooksByUrl } from './hook-url-search';
import { HookViews } from './hook-views';
import { isIdOf } from './id-guard';
import { withoutKeptCredentials } from './kept-credentials';
import type { SecretBox } from './secret-box';

// Tries of an update whose hook another update changed between its read and its write; past them, 409.
const CHANGE_TRIES = 5;

/** What one update wrote: the record as the write left it, and the subscription and filter it has with it. */
interface ChangeWritten {
  readonly now: string;
  readonly secret: string | undefined;
  readonly hook: StoredHook;
  readonly events: HookEvents;
  readonly filter: HookFilter | undefined;
}

export interface HooksDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly secretBox: SecretBox;
  readonly hookQueues: HookQueueAdmin;
  readonly activity: RedisActivityFeed;
  readonly clock: Clock;
  /** The event kinds hooks may subscribe to; call_created alone when absent. */
  readonly catalog?: EventCatalog;
  /** HOOKLINE_EVENT_TYPE_HEADER, which no extra header may name; the default when absent. */
  readonly eventTypeHeader?: string;
}

/**
 * Hooks in Redis: a hash per hook, indexed per account and globally; each hook owns one BullMQ queue. What a
 * hook subscribes to lives in its account's hook-events hash (the account's slot), where routing reads it.
 */
export class RedisHooks implements Hooks {
  private readonly schemas: ReturnType<typeof hookInputSchemas>;
  private readonly filters: HookFilters;
  private readonly routing: HookRouting;
  private readonly records: HookRecordAccess;
  private readonly views: HookViews;
  private readonly signingSecrets: HookSigningSecrets;
  private readonly urls: HookUrlIndex;

  constructor(private readonly deps: HooksDeps) {
    this.schemas = hookInputSchemas(deps.catalog ?? BUILT_IN_CATALOG, {
      ...(deps.eventTypeHeader ? { eventTypeHeader: deps.eventTypeHeader } : {}),
      now: deps.clock,
    });
    this.filters = new HookFilters(deps.redis, deps.keys);
    this.routing = new HookRouting(deps.redis, deps.keys);
    this.urls = new HookUrlIndex(deps.redis, deps.keys);
    this.records = new HookRecordAccess(deps.redis, deps.keys, deps.clock, this.urls);
    this.views = new HookViews(
      deps.redis,
      deps.keys,
      deps.hookQueues,
      this.filters,
      this.records,
      deps.clock,
      deps.eventTypeHeader,
    );
    this.signingSecrets = new HookSigningSecrets(
      this.records,
      this.views,
      deps.secretBox,
      deps.activity,
      deps.clock,
    );
  }

  async create(accountId: string, input: CreateHookInput, actor: string): Promise<HookWithSecret> {
    const parsed = this.schemas.create.safeParse(input);
    if (!parsed.success) throw validationError(zodProblems(parsed.error));
    const { redis, keys, hookQueues, activity } = this.deps;
    if (!isIdOf('acct', accountId) || !(await redis.exists(keys.accountRecord(accountId))))
      throw notFound('Account');
    const hook = parsed.data;
    const plainTls = hook.tls && clientCertificateUrlProblem(hook.url, 'tls');
    if (plainTls) throw validationError([plainTls]);
    checkFilter(hook.filter, hook.events, this.deps.catalog ?? BUILT_IN_CATALOG);
    const id = newId('hk');
    const now = this.records.now();
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
      await this.urls.set([{ hookId: id, version: 1, url: hook.url }]);
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
      await this.records.unindex(accountId, id).catch(() => undefined);
      await this.records.dropHookKeys(id).catch(() => undefined);
      await hookQueues.remove(id).catch(() => undefined);
      throw error;
    }
    const created = await this.get(accountId, id);
    if (!created) throw new Error(`hook ${id} vanished right after it was created`);
    return secret ? { ...created, signing_secret: secret } : created;
  }

  get(accountId: string, hookId: string): Promise<HookView | undefined> {
    return this.views.get(accountId, hookId);
  }

  async list(accountId: string): Promise<HookView[]> {
    return this.views.list(accountId, await this.listIds(accountId));
  }

  async page(accountId: string, request: HookPageRequest): Promise<HookPage> {
    const places = await this.views.places(accountId, await this.listIds(accountId));
    const { ids, next_cursor } = pageOfPlaces(places, request);
    return { data: await this.views.list(accountId, ids), ...(next_cursor ? { next_cursor } : {}) };
  }

  async update(
    accountId: string,
    hookId: string,
    input: UpdateHookInput,
    actor: string,
    options: { readonly ifVersion?: number } = {},
  ): Promise<HookWithSecret | undefined> {
    const parsed = this.schemas.update.safeParse(input);
    if (!parsed.success) throw validationError(zodProblems(parsed.error));
    const change = await this.withoutKeptCredentials(accountId, hookId, parsed.data);
    // What the change really changes is named in the feed, as in the audit log: a form sends every field.
    const before = await this.get(accountId, hookId);
    // A change that changes nothing (the values the hook has, `signing: true` on a hook that signs) writes
    // nothing: its version and updated_at stay, so a form opened before it is not refused as stale.
    if (before && changedHookFields(before, change).length === 0) {
      if (options.ifVersion !== undefined && (await this.version(accountId, hookId)) !== options.ifVersion)
        throw staleChange();
      return before;
    }
    // Judged against the record as read and written only while it is still so: two changes at once (one making
    // the url http://, one adding a certificate) each pass alone, and together left a certificate on a
    // plain-http hook. The one that lost is judged again on the record the other left.
    let written = await this.writeChange(accountId, hookId, change, options.ifVersion);
    // A change made for a given version is not judged again on another: its sender has not seen that one.
    for (
      let again = 1;
      written === 'stale' && again < CHANGE_TRIES && options.ifVersion === undefined;
      again++
    )
      written = await this.writeChange(accountId, hookId, change);
    if (written === 'stale' && options.ifVersion !== undefined) throw staleChange();
    if (written === 'stale')
      throw new HooklineError(
        'CONFLICT',
        'The hook was changed by another request meanwhile; send the change again',
      );
    if (!written) return undefined;
    const { now, secret, hook } = written;
    if (change.url !== undefined) await this.urls.set([{ hookId, version: hook.version, url: change.url }]);
    if (
      (change.events !== undefined || change.filter !== undefined) &&
      !(await this.routing.setForChange(accountId, hookId, hook.version, change))
    )
      return undefined;
    // Names of the changed fields only: values (URLs may carry tokens) stay out of the feed. A change that
    // changes nothing is not an entry.
    const fields = before ? changedHookFields(before, change) : Object.keys(change);
    if (fields.length > 0)
      await this.deps.activity.append(accountId, {
        kind: 'hook.updated',
        at: now,
        hook_id: hookId,
        actor,
        detail: fields.join(', '),
      });
    // What this change wrote, at the version it made: a read now could show a change that landed after it. The
    // subscription and filter are written in the account's slot, apart from the record (a Redis Cluster cannot
    // change both in one step), so they are this change's own, or those it was judged against.
    const updated = await this.views.viewOf(hook, written.events, written.filter);
    return secret ? { ...updated, signing_secret: secret } : updated;
  }

  async withoutKeptCredentials(
    accountId: string,
    hookId: string,
    change: UpdateHookInput,
  ): Promise<UpdateHookInput> {
    if (change.auth === undefined && (change.tls === undefined || change.tls === null)) return change;
    const stored = await this.records.readOwned(accountId, hookId);
    return stored ? withoutKeptCredentials(stored, this.deps.secretBox, change) : change;
  }

  rotateSigningSecret(accountId: string, hookId: string, actor: string): Promise<HookWithSecret | undefined> {
    return this.signingSecrets.rotate(accountId, hookId, actor);
  }

  setSigningSecret(accountId: string, hookId: string, secret: string, actor: string): Promise<boolean> {
    return this.signingSecrets.set(accountId, hookId, secret, actor);
  }

  async version(accountId: string, hookId: string): Promise<number | undefined> {
    return (await this.records.readOwned(accountId, hookId))?.version;
  }

  async neverSuspend(accountId: string, hookId: string): Promise<boolean> {
    return (await this.records.change(hookId, accountId, false, [], { [NEVER_SUSPEND_FIELD]: '1' })) >= 0;
  }

  /** One try of an update's write: undefined when the hook is gone, 'stale' when it changed since it was read. */
  private async writeChange(
    accountId: string,
    hookId: string,
    change: UpdateHookInput,
    ifVersion?: number,
  ): Promise<ChangeWritten | 'stale' | undefined> {
    const { redis, keys } = this.deps;
    const [stored, eventsField, storedFilter] = await Promise.all([
      this.records.readOwned(accountId, hookId),
      redis.hget(keys.accountHookEvents(accountId), hookId),
      this.filters.get(accountId, hookId),
    ]);
    if (!stored) return undefined;
    if (ifVersion !== undefined && stored.version !== ifVersion) return 'stale';
    // Only a change of either is judged: a hook saved so before this check can still change its other settings.
    const keepsTls = change.tls
      ? true
      : change.url !== undefined && change.tls === undefined && !!stored.tls_sealed;
    const plainTls =
      keepsTls && clientCertificateUrlProblem(change.url ?? stored.url, change.tls ? 'tls' : 'url');
    if (plainTls) throw validationError([plainTls]);
    // The filter the hook will have, against the kinds it will get: either may change without the other.
    const events = change.events ?? eventsFromField(eventsField);
    const filter = change.filter !== undefined ? normalFilter(change.filter) : storedFilter;
    if (change.events !== undefined || change.filter !== undefined)
      checkFilter(filter, events, this.deps.catalog ?? BUILT_IN_CATALOG);
    const now = this.records.now();
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
    // `{}` and null both remove them (null as for description, filter and tls).
    if (change.headers && Object.keys(change.headers).length > 0)
      set[HEADERS_FIELD] = JSON.stringify(change.headers);
    else if (change.headers !== undefined) remove.push(HEADERS_FIELD);
    if (change.tls) Object.assign(set, tlsFields(this.deps.secretBox, hookId, change.tls));
    if (change.tls === null) remove.push(...TLS_FIELDS);
    const hook = await this.records.changeAndRead(hookId, accountId, remove, set, stored.version);
    if (hook === STALE_VERSION) return 'stale';
    return hook && { now, secret, hook, events, filter };
  }

  async remove(accountId: string, hookId: string, actor: string): Promise<boolean> {
    if (!(await this.records.readOwned(accountId, hookId))) return false;
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
    this.routing.removeInto(tx, accountId, hookId);
    activity.appendInto(tx, accountId, {
      kind: 'hook.deleted',
      at: this.records.now(),
      hook_id: hookId,
      actor,
    });
    await execOrThrow(tx);
    await this.deps.redis.srem(this.deps.keys.allHooks(), hookId);
    await this.urls.remove(hookId);
    await hookQueues.remove(hookId);
    // After the queue. A request on the wire during the delete lost its job and lock with the queue; the record
    // goes, so the outcome can tell the hook was deleted, and the attempt's mark stays until that outcome is
    // recorded (attempt-finish.lua), so it still reaches the account's history.
    await this.records.dropHookKeys(hookId);
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
    const hook = await this.records.read(hookId);
    return hook && toHookTarget(hook, this.deps.secretBox);
  }

  async suspension(accountId: string, hookId: string): Promise<SuspensionInfo | undefined> {
    const hook = await this.records.readOwned(accountId, hookId);
    return hook && toSuspensionInfo(hook);
  }

  async recordSuspension(hookId: string, info: SuspensionInfo): Promise<void> {
    if (isIdOf('hk', hookId)) await this.records.change(hookId, '', false, [], suspensionFields(info));
  }

  async clearSuspension(hookId: string): Promise<void> {
    if (isIdOf('hk', hookId)) await this.records.change(hookId, '', false, [...SUSPENSION_FIELDS], {});
  }

  findByUrl(text: string, limit: number): Promise<UrlSearch> {
    return findHooksByUrl(this.urls, this.records, this.views, text, limit);
  }

  indexUrls(): Promise<void> {
    return this.urls.walk();
  }
}

/** A change prepared for a version of the hook that another change has replaced since. */
function staleChange(): HooklineError {
  return new HooklineError(
    'CONFLICT',
    'The hook was changed since this change was prepared; read it again and send the change again',
  );
}
