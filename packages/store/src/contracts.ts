import type {
  HookHeaders,
  HookTls,
  AttemptRecord,
  CreateHookInput,
  DeliveryRecord,
  HookAuth,
  HookFormat,
  HookView,
  HookWithSecret,
  SigningKeys,
  UpdateHookInput,
} from '@hookline/core';
import type { PreparedFinish, PreparedTake, WaitingWindow, WindowStart } from '@hookline/redis';
import type { HookPage, HookPageRequest } from './hook-page';

// The store's public contract. Implementations live beside this file; the API, the website, the worker and
// the monitor depend on these shapes only.

export interface AccountView {
  readonly id: string;
  readonly name: string;
  readonly email?: string;
  readonly created_at: string;
}

export interface CreateAccountInput {
  readonly name: string;
  readonly email?: string;
  readonly password?: string;
}

/** Everything the worker needs to deliver to a hook, credentials decrypted (in memory only). */
export interface HookTarget {
  readonly id: string;
  readonly accountId: string;
  readonly url: string;
  readonly format: HookFormat;
  readonly auth: HookAuth;
  /** Present when the hook signs its requests (Standard Webhooks). */
  readonly signing?: SigningKeys;
  /** Extra headers sent on every request; absent when none. */
  readonly headers?: HookHeaders;
  /** The client certificate presented to the endpoint (mutual TLS); absent when none. */
  readonly tls?: HookTls;
  /** Bumped on every change, so caches can tell a stale target. */
  readonly version: number;
}

export type ActivityKind =
  | 'hook.created'
  | 'hook.updated'
  | 'hook.deleted'
  /** The hook's failure streak reached half the suspension threshold: it will be suspended if it goes on. */
  | 'hook.failing'
  | 'hook.suspended'
  | 'hook.enabled'
  /** The watchdog found the hook with events waiting and no worker, and waking it did not help. */
  | 'hook.stuck'
  | 'account.password_changed'
  /** An erasure of personal data was asked for, and finished (the detail says how, never what). */
  | 'erasure.requested'
  | 'erasure.done';

export interface ActivityEntry {
  readonly kind: ActivityKind;
  readonly at: string;
  readonly hook_id?: string;
  /** Who acted: `customer:<accountId>`, `operator` (API key), `admin:<user>` (Bull Board), `monitor`. */
  readonly actor: string;
  readonly detail?: string;
}

export interface SuspensionInfo {
  readonly at: string;
  readonly reason: string;
  /** Who suspended it (an activity actor: `monitor`, `admin:<user>`…): only an admin resumes an admin's pause. */
  readonly by?: string;
  /** The failures that caused it (most recent last), for the website's banner. */
  readonly failures?: readonly DeliveryRecord[];
}

export interface Accounts {
  create(input: CreateAccountInput): Promise<AccountView>;
  get(accountId: string): Promise<AccountView | undefined>;
  /** Account for an email and password, or undefined (constant work whether or not the email exists). */
  verifyPassword(email: string, password: string): Promise<AccountView | undefined>;
  /** The id of the account signed in with this email, if any (for the operator's own tools, not sign-in). */
  idByEmail(email: string): Promise<string | undefined>;
  changePassword(accountId: string, currentPassword: string, newPassword: string): Promise<boolean>;
  /** Whether the account signs in with a password (one made by the API without one opens by sign-in links). */
  hasPassword(accountId: string): Promise<boolean>;
}

export interface Hooks {
  /** With `signing_secret` when the input asked for signing: the only time the secret is shown. */
  create(accountId: string, input: CreateHookInput, actor: string): Promise<HookWithSecret>;
  /** Undefined when the hook does not exist or belongs to another account. */
  get(accountId: string, hookId: string): Promise<HookView | undefined>;
  /** Every hook of the account, oldest first (by created_at, then id). */
  list(accountId: string): Promise<HookView[]>;
  /** One page of `list`'s order, from after `request.cursor` (hook-page.ts). */
  page(accountId: string, request: HookPageRequest): Promise<HookPage>;
  /**
   * With `ifVersion` (a form's `version`), only while the hook's settings are still at that version: else a
   * CONFLICT error and nothing written, so a form opened before another change cannot undo it.
   */
  update(
    accountId: string,
    hookId: string,
    input: UpdateHookInput,
    actor: string,
    options?: { readonly ifVersion?: number },
  ): Promise<HookWithSecret | undefined>;
  /**
   * The change without the credentials or client certificate it gives again as the hook has them (compared
   * sealed values opened, never returned): what `update` then writes and what an audit entry should name.
   */
  withoutKeptCredentials(
    accountId: string,
    hookId: string,
    change: UpdateHookInput,
  ): Promise<UpdateHookInput>;
  /** The version of the hook's settings, bumped by every change of them; undefined as for `get`. */
  version(accountId: string, hookId: string): Promise<number | undefined>;
  /**
   * A new signing secret, returned once; the previous one keeps signing beside it for 24 hours. Undefined when
   * the hook does not exist or is another account's; a CONFLICT error when the hook does not sign.
   */
  rotateSigningSecret(accountId: string, hookId: string, actor: string): Promise<HookWithSecret | undefined>;
  /**
   * Signs the hook's requests with exactly this secret from the next request on, no other one beside it: for
   * a hook whose secret comes from a setting (the operator's notices). False when the hook is not found.
   */
  setSigningSecret(accountId: string, hookId: string, secret: string, actor: string): Promise<boolean>;
  /**
   * The hook is never suspended, whatever its failures (the operator's notices: one attempt each, nobody to
   * re-enable it). False when the hook is not found.
   */
  neverSuspend(accountId: string, hookId: string): Promise<boolean>;
  remove(accountId: string, hookId: string, actor: string): Promise<boolean>;
  listIds(accountId: string): Promise<string[]>;
  /** The account a hook belongs to, for processes that know only the hook (the monitor's watchdog). */
  accountOf(hookId: string): Promise<string | undefined>;
  /** Why the hook was suspended (with the failures that caused it), for the website's banner. */
  suspension(accountId: string, hookId: string): Promise<SuspensionInfo | undefined>;
  /** For the worker: the hook with decrypted credentials, or undefined if it was deleted. */
  target(hookId: string): Promise<HookTarget | undefined>;
  recordSuspension(hookId: string, info: SuspensionInfo): Promise<void>;
  clearSuspension(hookId: string): Promise<void>;
  /**
   * Hooks of any account whose endpoint URL contains `text` (the scheme and host in any case, the rest as
   * typed), at most `limit`, for the admin area. Costs the matches, not the deployment's hooks.
   */
  findByUrl(text: string, limit: number): Promise<UrlSearch>;
  /**
   * Adds hooks made before the URL index (an upgrade) to it, and whatever else it lacks; returns at once when
   * it lacks nothing. Safe to run from several processes at once.
   */
  indexUrls(): Promise<void>;
}

export interface UrlSearch {
  /** Oldest first. */
  readonly hooks: readonly HookView[];
  /** More hooks match than `limit`. */
  readonly more: boolean;
  /** False until the hooks made before the URL index have all been added to it (`indexUrls`). */
  readonly complete: boolean;
}

/**
 * The part of `HookQueues` (@hookline/queue) the store drives. Declared here so that the store needs no
 * runtime dependency on BullMQ; `HookQueues` satisfies it as it is.
 */
export interface HookQueueAdmin {
  /** Creates the queue's metadata (global concurrency 1). */
  setUp(hookId: string): Promise<void>;
  isPaused(hookId: string): Promise<boolean>;
  pausedMany(hookIds: readonly string[]): Promise<boolean[]>;
  /** Obliterates the queue and every job in it. */
  remove(hookId: string): Promise<void>;
}

/** The part of `HookQueues` that reads a hook's waiting (while suspended, held) events: HeldEvents' source. */
export interface WaitingQueue {
  waitingCount(hookId: string): Promise<number>;
  waitingWindow(hookId: string, start: WindowStart, count: number): Promise<WaitingWindow>;
}

/**
 * The worker's side of one delivery attempt, made crash-safe by the hook's attempt marker (see
 * attempt-ledger.ts): `begin` reads the hook and marks the event as being attempted, `finish` appends the
 * attempt's record to the hook's history outbox and marks the attempt done, each in one step.
 */
/**
 * Proof that the caller holds the event's job: BullMQ's job id and the caller's lock token. Every write of
 * the ledger checks it atomically, so a process frozen past its lock (which another process has taken since)
 * neither sends nor records anything.
 */
export interface AttemptFence {
  readonly jobId: string;
  readonly token: string;
}

export interface AttemptLedger {
  /**
   * `marker` names the attempt in the hook's attempt key: the event id for an event's own turn, the job id for
   * a send-again of it (the same event, another attempt).
   */
  /**
   * `erasureTags`: the event's (core's ErasureTags.ofEvent), refused while an erasure has one of them marked; as a
   * function, computed only while an erasure runs on the hook.
   */
  begin(
    hookId: string,
    marker: string,
    fence: AttemptFence,
    erasureTags?: readonly string[] | (() => readonly string[]),
  ): Promise<AttemptStart>;
  /**
   * Takes back the caller's own open mark, sending nothing (a request that did not leave): the job's next
   * taking then sends the event instead of recording `unknown`. False when the mark or the lock is not the
   * caller's any more.
   */
  withdraw?(hookId: string, marker: string, fence: AttemptFence): Promise<boolean>;
  /**
   * Takes `begin`'s mark back when nothing of the request was written (the egress proxy refused or was
   * unreachable): the event counts as never attempted. `fenced` when the caller lost the job.
   */
  release(hookId: string, marker: string, fence: AttemptFence): Promise<'released' | 'fenced'>;
  /** `streakStep`: how the outcome moves the hook's failure streak (@hookline/suspension `streakStep`). */
  finish(
    hookId: string,
    record: AttemptRecord,
    fence: AttemptFence,
    streakStep?: StreakStep,
    marker?: string,
    /** The job's data without the event's fields: put in place of the job's data with the outcome. */
    emptiedJobData?: string,
  ): Promise<AttemptFinish>;
  /**
   * `finish`, and the job's completion in the same script: BullMQ's moveToFinished as shipped, with the keys
   * and arguments the job's source prepared (`HookJobs.prepareFinish`). One round trip for both; BullMQ's part
   * runs unless the caller was fenced. With `markNext`, a job BullMQ takes next under the same token has its
   * attempt marked in the same script, as `begin` marks it (`next`): its request may leave with no round trip
   * before it. Only for a caller that sends that request next, with nothing on Redis in between: a process
   * that dies in between leaves the next event marked, and it is recorded `unknown`, never sent.
   */
  finishAndComplete(
    hookId: string,
    record: AttemptRecord,
    fence: AttemptFence,
    streakStep: StreakStep | undefined,
    marker: string,
    emptiedJobData: string,
    completion: PreparedFinish,
    markNext?: boolean,
    /**
     * For an `erased` outcome (the fence refused the event): the event's erasure tags. The same script keeps
     * them with its event id beside the hook, where the erasure carrying one of them counts it.
     */
    erasureTags?: readonly string[],
  ): Promise<FinishedJob>;
  /**
   * Takes the hook's next job with BullMQ's moveToActive as shipped (`HookJobs.prepareTake`) and marks its
   * attempt in the same script, as `begin` marks it (`begun`). `jobReply` is BullMQ's reply, read back by
   * `HookJobs.taken`. The same condition as `markNext`: the caller sends that job's request next.
   */
  takeAndBegin(take: PreparedTake): Promise<TakenJob>;
}

/** A job taken with its attempt marked (`takeAndBegin`); no `begun` when none was taken, or not marked. */
export interface TakenJob {
  readonly jobReply: unknown;
  readonly begun?: BegunAttempt;
}

/**
 * An outcome recorded with its job's completion: `jobReply` is BullMQ's moveToFinished reply (read back by
 * `HookJobs.finished`), absent when fenced; `again` when this call had already run and its reply was lost
 * (a resend after a reconnect): recorded and completed, and the next job, if one was taken, is unknown.
 * `next`: the attempt of the job taken next, marked by the same script (`markNext`).
 */
export interface FinishedJob {
  readonly finished: AttemptFinish;
  readonly jobReply?: unknown;
  readonly again?: true;
  readonly next?: BegunAttempt;
  /**
   * The script marked the hook for the history writer with its record (one Redis: see attempt-finish.lua); the
   * caller marks it otherwise (OutboxMarks).
   */
  readonly historyMarked?: true;
  /**
   * The script took no next job and gave the hook's lease back (`PreparedFinish.releaseFor`, one Redis: see
   * attempt-finish.lua): the holding is over, and the consumer does not release it again.
   */
  readonly leaseReleased?: true;
}

/**
 * An attempt marked by the script that took its job (`takeAndBegin`, or the finish of the job before it with
 * `markNext`): `start` is what `begin` would have answered at `askedAt` (performance.now() when that script
 * was sent; the lock left counts from there). `tags_wanted` never comes here: an erasure running on the hook
 * leaves the job unmarked.
 */
export interface BegunAttempt {
  readonly jobId: string;
  readonly start: AttemptStart;
  readonly askedAt: number;
}

export type AttemptStart =
  /**
   * Never attempted: send it to this target, if it can still be sent within the lock: `lockMsLeft` is what
   * remained of the job's lock when the attempt was marked.
   */
  | { readonly kind: 'send'; readonly target: HookTarget; readonly lockMsLeft: number }
  /** The caller no longer holds the job (its lock is another holder's, or gone): send nothing, record nothing. */
  | { readonly kind: 'fenced' }
  /** An earlier attempt may have reached the endpoint: record `unknown`, never send again. */
  | { readonly kind: 'maybe_sent' }
  /** An erasure reaches the event: send nothing, record `erased` (the attempt is marked for that). */
  | { readonly kind: 'erased' }
  /** The outcome is recorded already; only the job's completion was lost. */
  | { readonly kind: 'already_recorded' }
  /** Deleted after the event was accepted: nowhere to deliver. */
  | { readonly kind: 'hook_deleted' }
  /**
   * Marked, but nothing can be sent: the hook's sealed credentials do not open (HOOKLINE_SECRET_KEY changed).
   * Record the attempt `failed` with `reason`, so the hook's failure streak (and suspension) stops it.
   */
  | { readonly kind: 'unsendable'; readonly reason: string }
  /**
   * HOOKLINE_REDIS_REPLICA_ACKS: the mark was not acknowledged by enough replicas in time, and was taken back.
   * Send nothing, record nothing: the event is sent at the job's next taking.
   */
  | { readonly kind: 'unacknowledged' };

/** `fenced`: the caller lost the job's lock; `not_this_attempt`: the hook's attempt marker is another event's. */
/**
 * `recorded_deleted`: the hook was deleted while the request was in flight; its record is written (the account's
 * history shows it) and the job, gone with the hook, is not completed.
 */
export type AttemptFinish = 'recorded' | 'recorded_deleted' | 'hook_deleted' | 'fenced' | 'not_this_attempt';

export interface ActivityFeed {
  append(accountId: string, entry: ActivityEntry): Promise<void>;
  /** Newest first. */
  list(accountId: string, limit: number): Promise<ActivityEntry[]>;
}

/** How an outcome moves a hook's failure streak; none for events that were never attempted. */
export type StreakStep = 'failure' | 'delivered';

/** HOOKLINE_SUSPEND_AFTER_FAILURES and HOOKLINE_SUSPEND_AFTER_MS, for the worker's outcome script. */
export interface SuspensionRule {
  readonly threshold: number;
  readonly windowMs: number;
}
