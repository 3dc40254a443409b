// Every Redis key hookline uses is built here, and nowhere else.
//
// Keys that belong to one hook carry the hook id as a Redis Cluster hash tag ({hk_…}), and the hook's BullMQ
// queue name carries the same tag, so a hook's queue, log and settings live on one shard and can be touched
// by one script. Account keys are tagged by account id. The few global keys (ready set, leases, indexes)
// stay small.
export type RedisKeys = ReturnType<typeof redisKeys>;

export function redisKeys(prefix: string) {
  const hook = (hookId: string) => `${prefix}:{${hookId}}`;
  const account = (accountId: string) => `${prefix}:{${accountId}}`;
  return {
    prefix,
    /** BullMQ queue name of a hook (BullMQ adds `${prefix}:` in front of its own keys). */
    hookQueueName: (hookId: string) => `hook-{${hookId}}`,
    hookIdFromQueueName: (queueName: string) => /^hook-\{(hk_[0-9a-z]+)\}$/.exec(queueName)?.[1],
    /** BullMQ's hash for a queue's metadata; its `paused` field is the hook's suspension state. */
    hookQueueMeta: (hookId: string) => `${prefix}:hook-{${hookId}}:meta`,
    hookQueueKey: (hookId: string, suffix: string) => `${prefix}:hook-{${hookId}}:${suffix}`,

    hookRecord: (hookId: string) => `${hook(hookId)}:hook`,
    hookDeliveries: (hookId: string) => `${hook(hookId)}:deliveries`,
    /** Set while an attempt may be on the wire: a re-run after a crash must not send again. */
    hookAttemptMarker: (hookId: string, eventId: string) => `${hook(hookId)}:attempt:${eventId}`,
    hookStreak: (hookId: string) => `${hook(hookId)}:streak`,

    accountRecord: (accountId: string) => `${account(accountId)}:account`,
    accountHooks: (accountId: string) => `${account(accountId)}:hooks`,
    accountActivity: (accountId: string) => `${account(accountId)}:activity`,
    accountIdempotency: (accountId: string, key: string) => `${account(accountId)}:idem:${key}`,

    accountByEmail: () => `${prefix}:accounts:by-email`,
    allHooks: () => `${prefix}:hooks`,
    /** Hooks that have (or may have) waiting events and no process attached: ZSET hookId -> signal time. */
    readyHooks: () => `${prefix}:ready`,
    /** Hooks attached by a worker process: ZSET hookId -> lease expiry (ms). */
    hookLeases: () => `${prefix}:leases`,
    reconcileLock: () => `${prefix}:reconcile-lock`,
    outcomes: () => `${prefix}:outcomes`,
    session: (sessionId: string) => `${prefix}:session:${sessionId}`,
    loginAttempts: (subject: string) => `${prefix}:login-attempts:${subject}`,
  };
}
