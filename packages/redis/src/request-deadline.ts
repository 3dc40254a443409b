import type { Redis } from 'ioredis';
import { FAILOVER_BUDGET_MS } from './failover';

// A Redis that accepts connections and never answers (a frozen process, a partition that drops packets
// without a reset) leaves a command unanswered for as long as it lasts: the connection is open, so neither the
// fail-fast client's refusal while disconnected nor its connect timeout applies, and a request of the HTTP tier
// would hang with it, then take effect when Redis comes back. So every command the HTTP tier sends has a
// deadline of its own (ioredis' `commandTimeout`): past it, the command is given up on ("Command timed out")
// and the request answers 503. The command itself may still run when Redis answers again (it was sent): the
// answer says so. Only the HTTP tier's connections get it: a worker's commands wait for Redis (its blocking
// reads above all), and the in-process producer has its own bound (`timeoutMs`).

/**
 * The deadline of one command of the HTTP tier on a single Redis or through Sentinel. Longer than anything a
 * healthy command waits for on that connection: a replica acknowledgement (REPLICA_ACK_TIMEOUT_MS, 1 s) and
 * the write held behind another one's (twice that, ack-gate.ts); shorter than the 10 s timeout many
 * producers' HTTP clients use, and than HOOKLINE_HTTP_DRAIN_MS's default, so a request in flight on SIGTERM
 * gets its 503 before the process stops.
 */
export const REQUEST_COMMAND_TIMEOUT_MS = 5000;

/**
 * On a Redis Cluster the deadline of a command runs through the client's own retries (it is set once, when the
 * command is first sent), which wait out a promotion for up to FAILOVER_BUDGET_MS: a command is given up on
 * only after those retries ran out, so a promotion is still waited out.
 */
export const CLUSTER_REQUEST_COMMAND_TIMEOUT_MS = FAILOVER_BUDGET_MS + 1000;

/** ioredis' error for a command given up on at its `commandTimeout`. */
export function isCommandTimedOut(error: unknown): boolean {
  return error instanceof Error && error.message === 'Command timed out';
}

/** The command deadline a client was made with (ms), on a Cluster its nodes'; undefined when it has none. */
export function commandTimeoutOf(redis: object): number | undefined {
  const options = (redis as Partial<Pick<Redis, 'options'>>).options as
    { commandTimeout?: unknown; redisOptions?: { commandTimeout?: unknown } } | undefined;
  const timeout = options?.commandTimeout ?? options?.redisOptions?.commandTimeout;
  return typeof timeout === 'number' ? timeout : undefined;
}
