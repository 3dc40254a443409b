// Every Redis key hookline uses is built here, and nowhere else.
//
// Keys that belong to one hook carry the hook id as a Redis Cluster hash tag ({hk_…}), and the hook's BullMQ
// queue name carries the same tag, so a hook's queue, log and settings live on one shard and can be touched
// by one script. Account keys are tagged by account id. The few global keys (ready set, leases, indexes)
// stay small, and no script or transaction mixes keys of two hash tags, so everything runs unchanged on a
// Redis Cluster.
export type RedisKeys = ReturnType<typeof redisKeys>;

/** A failure streak nobody has touched for this long is forgotten: it bounds what a deleted hook leaves behind. */
export const STREAK_IDLE_TTL_MS = 30 * 24 * 3600 * 1000;

/** A streak keeps its first failure and this many of its latest (the count stays exact). */
export const STREAK_FAILURES_KEPT = 1000;

/**
 * The field of a hook's record that keeps it from ever being suspended: the operator's notices hook, whose
 * events are one attempt each and must not be held behind a failing streak (nobody would re-enable it).
 */
export const NEVER_SUSPEND_FIELD = 'never_suspend';

/**
 * A worker's failure that suspends a hook points the monitor at it through the suspension-due set, due this
 * long after: the monitor normally records the suspension from the failure's stream entry first, and the due
 * set only catches a worker killed before writing that entry. (`attempt-finish.lua`'s `now + 2000` is this.)
 */
export const SUSPENSION_DUE_AFTER_MS = 2000;

export function redisKeys(prefix: string) {
  const hook = (hookId: string) => `${prefix}:{${hookId}}`;
  const account = (accountId: string) => `${prefix}:{${accountId}}`;
  const scheduler = (name: string) => `${prefix}:{scheduler}:${name}`;
  return {
    prefix,
    /** BullMQ queue name of a hook (BullMQ adds `${prefix}:` in front of its own keys). */
    hookQueueName: (hookId: string) => `hook-{${hookId}}`,
    hookIdFromQueueName: (queueName: string) => /^hook-\{(hk_[0-9a-z]+)\}$/.exec(queueName)?.[1],

    hookRecord: (hookId: string) => `${hook(hookId)}:hook`,
    /**
     * Attempt records not yet written to the history database (a LIST, oldest first). The script that records an
     * outcome appends here, in the hook's slot, so a record exists as soon as its outcome does; the history
     * writer moves them to PostgreSQL and trims them. Redis keeps no history: this list is empty at rest.
     */
    hookHistoryOutbox: (hookId: string) => `${hook(hookId)}:history-outbox`,
    /**
     * How many times an erasure has emptied records in the hook's outbox (a counter). A writer reads it with
     * the records and trims only if it is unchanged: records it read before an erasure emptied them are not
     * dropped, so the writer reads the emptied ones again and writes them over the full rows.
     */
    hookHistoryOutboxErasures: (hookId: string) => `${hook(hookId)}:history-outbox:erasures`,
    /**
     * The event id of the hook's latest attempt, with `:done` once its outcome is recorded. One key per hook is
     * enough because a hook has at most one attempt in flight; a job re-run after a crash reads it to decide
     * between sending, recording `unknown` (it may have left) and doing nothing (already recorded).
     */
    hookAttempt: (hookId: string) => `${hook(hookId)}:attempt`,
    /**
     * Erasures running over the hook's events: SET of tags (core's erasure.ts: hashes of a call id or number,
     * never the value). The attempt script refuses to send an event carrying a marked tag: the fence that holds
     * from the moment an erasure is accepted. Each erasure removes its tag when it is done.
     */
    hookErasing: (hookId: string) => `${hook(hookId)}:erasing`,
    /** How many running erasures stand behind each tag of hookErasing (erasure-fence-up/down.lua). */
    hookErasingCounts: (hookId: string) => `${hook(hookId)}:erasing:counts`,
    /**
     * Events of the hook the fence refused and recorded `erased` (a worker held them while an erasure ran): HASH
     * job id -> `<event id> <tag> <tag>…`, the event's erasure tags (hashes, never a value). Written by the
     * script that records the outcome; each erasure counts and removes the entries carrying one of its tags.
     */
    hookErasedByFence: (hookId: string) => `${hook(hookId)}:erasing:erased`,
    hookStreak: (hookId: string) => `${hook(hookId)}:streak`,
    /** Held while the hook is being re-enabled, by one process at a time (suspension's enabling.ts); expires. */
    hookEnabling: (hookId: string) => `${hook(hookId)}:enabling`,
    /** The failures of the current streak: ZSET eventId -> attempt time, so a redelivered outcome counts once. */
    hookStreakFailures: (hookId: string) => `${hook(hookId)}:streak:failures`,
    /**
     * While the hook's next event waits on the egress proxy (refused or unreachable): HASH since, reason. Set by
     * the worker that keeps the event waiting, with a short expiry it renews; read by the hook's answers and page.
     */
    hookEgressWait: (hookId: string) => `${hook(hookId)}:egress-wait`,
    /**
     * The hooks waiting on the egress proxy, fleet-wide: ZSET hookId -> when its wait entry expires (ms). Written
     * beside each hook's entry, only on kept-back tries and when a wait ends (never per delivery); read by
     * /readyz, so a proxy that takes connections but refuses every tunnel does not look healthy.
     */
    egressWaiting: () => `${prefix}:{egress}:waiting`,
    /**
     * The latest kept-back try, fleet-wide: HASH hook, reason, cause. In the index's slot and written in the same
     * transaction, so /readyz can name the refusal from the moment it counts the hook (the hook's own entry,
     * in the hook's slot, is written a moment later).
     */
    egressLatest: () => `${prefix}:{egress}:latest`,

    accountRecord: (accountId: string) => `${account(accountId)}:account`,
    accountHooks: (accountId: string) => `${account(accountId)}:hooks`,
    /**
     * What each hook of the account subscribes to: HASH hookId -> `*` (every kind, now and later) or kinds
     * joined by commas. In the account's slot, so accepting an event picks the subscribed hooks in one script;
     * a hook without an entry (made before subscriptions existed) gets every kind.
     */
    accountHookEvents: (accountId: string) => `${account(accountId)}:hook-events`,
    /**
     * The hooks' filters on event fields: HASH hookId -> filter JSON (core's hook-filter.ts); a hook without an
     * entry gets every event of its kinds. Beside the subscriptions, so the accept script applies both.
     */
    accountHookFilters: (accountId: string) => `${account(accountId)}:hook-filters`,
    /**
     * Which record version last wrote each hook's subscription and filter: HASH `<hookId> events` and
     * `<hookId> filter` -> version, so a change's late write never replaces a later change's (store's
     * hook-routing-set.lua). A hook without an entry takes any change's.
     */
    accountHookRoutingVersions: (accountId: string) => `${account(accountId)}:hook-routing-versions`,
    /**
     * One erasure (HASH: state, step, counts, who asked; while it runs, what it erases sealed with the secret
     * key), and the ids of the events it erased so far (SET, for the idempotency keys; dropped when done).
     */
    erasure: (accountId: string, erasureId: string) => `${account(accountId)}:erasure:${erasureId}`,
    erasureEvents: (accountId: string, erasureId: string) =>
      `${account(accountId)}:erasure:${erasureId}:event-ids`,
    /** The fence's `erased` records an erasure has counted: SET of `<hook id> <job id>` (dropped when done). */
    erasureFenceCounted: (accountId: string, erasureId: string) =>
      `${account(accountId)}:erasure:${erasureId}:fence-counted`,
    /** Idempotency keys of the account, for an erasure's scan (SCAN pattern). */
    accountIdempotencyPattern: (accountId: string) => `${account(accountId)}:idem:*`,
    accountActivity: (accountId: string) => `${account(accountId)}:activity`,
    /** When the account's sessions were last ended (a password change): older sessions are signed out. */
    accountSessionsAfter: (accountId: string) => `${account(accountId)}:sessions-after`,
    accountIdempotency: (accountId: string, key: string) => `${account(accountId)}:idem:${key}`,
    /**
     * A request's Idempotency-Key (the API's test and send-again): the answer, written by the script that accepts
     * the request's event (inbox-accept.lua) and kept as long as an event id's. Named by the operation and a hash
     * of the client's key (core's RequestKey), never the key itself; apart from the event ids' keys, as it holds
     * ids and hashes only, nothing of the event.
     */
    accountRequestKey: (accountId: string, name: string) => `${account(accountId)}:request-key:${name}`,
    /**
     * Events accepted for the account and not yet in every hook's queue: a stream of entries (event, hook ids),
     * each deleted once its fan-out is complete. Accepting is one write in the account's slot; the fan-out
     * to the hooks' queues (other slots) then follows, and is repeated from here if it was interrupted.
     */
    accountInbox: (accountId: string) => `${account(accountId)}:inbox`,

    accountByEmail: () => `${prefix}:accounts:by-email`,
    allHooks: () => `${prefix}:hooks`,
    /**
     * Every hook's endpoint URL, for the admin area's search by URL: HASH hookId -> `<record version> <url>`
     * (the URL in lower case).
     * Written after the hook's record (another slot), the newest version winning (hook-url-set.lua), and
     * searched a slice at a time in Redis (hook-url-scan.lua), so a search never reads every hook's record.
     */
    hookUrls: () => `${prefix}:hooks:urls`,
    /** Set once the hooks made before hookUrls existed (an upgrade) have all been added to it. */
    hookUrlsBuilt: () => `${prefix}:hooks:urls:built`,
    /** Accounts that accepted events lately: ZSET accountId -> last acceptance (ms); where recovery looks. */
    inboxAccounts: () => `${prefix}:inbox-accounts`,
    // The scheduler's scripts touch both of these at once, so they share one hash tag (one cluster slot).
    /** Hooks that have (or may have) waiting events and no process holding them: ZSET hookId -> signal time. */
    readyHooks: () => scheduler('ready'),
    /** Hooks a worker process is delivering to: ZSET hookId -> lease expiry (ms). */
    hookLeases: () => scheduler('leases'),
    /**
     * Which process holds each lease: HASH hookId -> holder id. Renewing and releasing check it, so a process
     * that was frozen past its lease cannot extend or drop the lease another process has taken since.
     */
    hookLeaseHolders: () => scheduler('lease-holders'),
    /**
     * Leased hooks that were signalled while their lease was live: SET of hookIds. Giving such a lease back
     * puts the hook straight back into the ready set, so a holder whose queue ran empty need not re-check it.
     */
    signalledWhileLeased: () => scheduler('signalled-while-leased'),
    /** Erasures accepted and not done: ZSET `<accountId>/<erasureId>` -> when accepted (ms); the runner's queue. */
    erasuresRunning: () => `${prefix}:erasures:running`,
    /** Which process runs an erasure now (a lease with its name): a runner killed mid-way is taken over. */
    erasureLease: (erasureId: string) => `${prefix}:erasures:lease:${erasureId}`,
    /**
     * Worker processes and when each last said it was alive: ZSET worker name -> heartbeat (ms). A worker
     * leaves it on SIGTERM; one that crashed or froze stays, with an old heartbeat, until the monitor prunes it.
     */
    workers: () => scheduler('workers'),
    /**
     * Hooks that have (or lately had) jobs or unwritten history: ZSET hookId -> a version that every signal
     * raises. Written by the ready signal (after the jobs are added), dropped by the watchdog once it finds the
     * hook without jobs and with an empty outbox and the version unchanged: the only hooks the watchdog and the
     * history's safety net look at, so an idle fleet costs nothing per hook.
     */
    hooksWithWork: () => scheduler('with-work'),
    /**
     * The keys a hook's signal writes (signal-hook.lua: ready set, leases, signalled while leased, hooks with
     * work), in that order: for every script that signals, the scheduler's own and a producer's add or accept.
     */
    signalKeys: () => ['ready', 'leases', 'signalled-while-leased', 'with-work'].map(scheduler),
    /**
     * The keys a lease's release writes (release-hook.lua: ready set, leases, lease holders, signalled while
     * leased), in that order: for the scheduler's claim, release and reclaim scripts, and the outcome's script
     * that gives a lease back on one Redis.
     */
    leaseKeys: () => ['ready', 'leases', 'lease-holders', 'signalled-while-leased'].map(scheduler),
    /** Which monitor runs the watchdog now (a lease with the holder's name), so several never double the work. */
    watchdogLock: () => `${prefix}:watchdog:lock`,
    /** Hooks the watchdog reported stuck and has not seen recover: ZSET hookId -> when reported (ms). */
    stuckHooks: () => `${prefix}:watchdog:stuck`,
    /** The fleet-wide figures of the watchdog's last full sweep (HASH), which every monitor exports. */
    fleetFigures: () => `${prefix}:watchdog:figures`,
    outcomes: () => `${prefix}:outcomes`,
    /**
     * Notices of hook transitions (failing, suspended, enabled): a stream each transition is appended to once,
     * by whoever made it; the monitors' notifier consumes it with a consumer group and sends each one.
     */
    notices: () => `${prefix}:notices`,
    /** The internal account and hook the operator's notices are delivered through: `<accountId> <hookId>`. */
    operatorHook: () => `${prefix}:operator-hook`,
    /**
     * Hooks whose history outbox has records to write: ZSET hookId -> since when (ms), or, while a writer is
     * on it, until when that writer holds it. Marked after the outcome script (another slot than the hook's);
     * a marker lost in a crash is put back by the watchdog, which looks at every hook with work (hooksWithWork).
     */
    historyDirty: () => `${prefix}:history:dirty`,
    /**
     * Audit entries not yet written to the database (a LIST of JSON, oldest first): the HTTP tier appends one
     * right after each change, the monitor's audit writer moves them to PostgreSQL and trims them. One global
     * key: entries come at the pace of people, not events.
     */
    auditOutbox: () => `${prefix}:audit:outbox`,
    /** A sign-in link, by the SHA-256 of its token: the account and options it opens, until it is used or expires. */
    portalLink: (tokenHash: string) => `${prefix}:portal-link:${tokenHash}`,
    /** Streaks long enough to suspend once old enough: ZSET hookId -> when to check again (ms). */
    suspensionDue: () => `${prefix}:suspension-due`,
    /** Index of suspended hooks (the paused flag stays the truth): for the gauge and the admin page. */
    suspendedHooks: () => `${prefix}:suspended`,
    session: (sessionId: string) => `${prefix}:session:${sessionId}`,
    loginAttempts: (subject: string) => `${prefix}:login-attempts:${subject}`,
  };
}
