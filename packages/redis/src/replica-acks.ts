import type { ChainableCommander, Redis } from 'ioredis';
import { ackGateOf } from './ack-gate';
import type { LuaScript } from './lua-script';

// "Write, then WAIT": the writes hookline's promises rest on are acknowledged by replicas before hookline
// acts on them (HOOKLINE_REDIS_REPLICA_ACKS). Replication is asynchronous, so a promoted replica can lack the
// primary's last writes: an attempt mark (another worker then sends the event again), an accepted event (a
// 202 for an event that is gone), an outcome and its history record.
//
// Scripts cannot call WAIT, so it is sent right after the write, on the same connection (WAIT waits for the
// caller's own last write). It must travel with the write, in one pipeline (`runAcknowledged`): ioredis sends
// a command again after its connection closed unanswered (a Cluster client on the slot's new master, a
// Sentinel client on the new primary), and a WAIT sent alone again that way lands on a connection that never
// wrote, where it counts every replica at once: the write it was meant to confirm, made on the killed
// master, is gone, and the caller is told it is safe (a Cluster failover test lost accepted events that way,
// answered 202 the moment the new master got a replica). A pipeline of the script and its WAIT is either
// answered whole, sent again whole (the script runs again there: every script that is confirmed is safe to
// repeat), or fails. The requirement belongs to the connection (set once where the connection is made, from
// the settings), so every writer that must wait asks here and needs no wiring.

/** How long one WAIT may take before the write counts as not acknowledged. */
export const REPLICA_ACK_TIMEOUT_MS = 1000;

/** A write fewer replicas acknowledged than required (the API answers 503 for it). */
export class ReplicaAcksMissingError extends Error {
  constructor(
    readonly required: number,
    readonly acknowledged: number,
    /** Sent without its WAIT (ack-gate.ts): what the connection's last WAIT found. */
    notAskedBecause?: string,
  ) {
    super(
      `${required} replica acknowledgement${required === 1 ? '' : 's'} required (HOOKLINE_REDIS_REPLICA_ACKS), ` +
        (notAskedBecause === undefined
          ? `${acknowledged} received within ${REPLICA_ACK_TIMEOUT_MS} ms`
          : `not waited for: the last WAIT on this connection found ${notAskedBecause}`),
    );
    this.name = 'ReplicaAcksMissingError';
  }
}

const required = new WeakMap<object, number>();

/** From now on, writes acknowledged on this client (runAcknowledged) wait for `acks` replicas (a duplicate() does not). */
export function requireReplicaAcks<T extends Redis>(redis: T, acks: number): T {
  if (acks > 0) required.set(redis, acks);
  return redis;
}

/** How many replica acknowledgements writes on this client need (0: none). */
export function replicaAcksOf(redis: object): number {
  return required.get(redis) ?? 0;
}

/** A script's reply, and why the replicas did not acknowledge its write, when they did not. */
export interface Acknowledged {
  readonly reply: unknown;
  /** ReplicaAcksMissingError, or the WAIT's own error; undefined when acknowledged (or none required). */
  readonly unacknowledged?: Error;
}

// A redirection means the script did not run: the Cluster client is made to learn the slot's node (a plain
// command follows the redirection) and the pair is sent again. ioredis does that itself for a pipeline only
// when every command failed the same way, and the WAIT beside the script usually did not.
const REDIRECTED = /^(MOVED|ASK|TRYAGAIN|CLUSTERDOWN) /;
const REDIRECTIONS = 8;

/**
 * Runs `script` and, when `redis` requires replica acknowledgements, WAIT in the same pipeline (see above):
 * the reply is the script's; `unacknowledged` says why its write is not known to be on the replicas. A script
 * error is thrown.
 */
export async function runAcknowledged(
  redis: Redis,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number | Buffer)[],
): Promise<Acknowledged> {
  if (replicaAcksOf(redis) === 0) return { reply: await script.run(redis, keys, args) };
  let source = false;
  return withWait(redis, keys[0]!, (pipeline, error) => {
    // The server has not seen the script (new, restarted, promoted): sent whole, with its WAIT, again.
    if (error?.message.startsWith('NOSCRIPT')) {
      if (source) return false;
      source = true;
    }
    if (source) pipeline.eval(script.source, keys.length, ...keys, ...args);
    else pipeline.evalsha(script.sha, keys.length, ...keys, ...args);
    return true;
  });
}

/** One command (`XDEL …`) and, when required, its WAIT in the same pipeline, as runAcknowledged. */
export async function callAcknowledged(
  redis: Redis,
  command: string,
  key: string,
  args: readonly (string | number | Buffer)[],
): Promise<Acknowledged> {
  if (replicaAcksOf(redis) === 0) return { reply: await redis.call(command, key, ...args) };
  return withWait(redis, key, (pipeline) => {
    pipeline.call(command, key, ...args);
    return true;
  });
}

/** runAcknowledged, throwing when the write is not acknowledged. */
export async function runConfirmed(
  redis: Redis,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number | Buffer)[],
): Promise<unknown> {
  const { reply, unacknowledged } = await runAcknowledged(redis, script, keys, args);
  if (unacknowledged) throw unacknowledged;
  return reply;
}

/**
 * Sends the write `add` puts into a pipeline, then WAIT, as one pipeline; again (the write with its WAIT)
 * after a redirection, or when `add` asks to after the write's error (a NOSCRIPT). The write's error is thrown.
 * The connection's gate (ack-gate.ts) may send the write without its WAIT: the replicas are known not to
 * answer, and the write is not acknowledged.
 */
async function withWait(
  redis: Redis,
  key: string,
  add: (pipeline: ChainableCommander, lastError?: Error) => boolean,
): Promise<Acknowledged> {
  const acks = replicaAcksOf(redis);
  let lastError: Error | undefined;
  for (let tries = 0; ; tries++) {
    const pipeline = redis.pipeline();
    if (!add(pipeline, lastError)) throw lastError;
    const ticket = await ackGateOf(redis, key, REPLICA_ACK_TIMEOUT_MS).enter();
    if (ticket.wait) pipeline.wait(acks, REPLICA_ACK_TIMEOUT_MS);
    let replies: [Error | null, unknown][] | null;
    try {
      replies = await pipeline.exec();
    } catch (error) {
      if (ticket.wait) ticket.answered(error instanceof Error ? error.message : String(error));
      throw error;
    }
    const [[writeError, reply] = [], [waitError, count] = []] = replies ?? [];
    const answer = ticket.wait ? waitAnswer(acks, waitError, count) : undefined;
    if (ticket.wait) ticket.answered(answer && shortfall(answer));
    if (writeError) {
      lastError = writeError;
      if (writeError.message.startsWith('NOSCRIPT')) continue;
      if (REDIRECTED.test(writeError.message) && tries < REDIRECTIONS) {
        await redis.exists(key).catch(() => undefined);
        continue;
      }
      throw writeError;
    }
    if (!ticket.wait)
      return { reply, unacknowledged: new ReplicaAcksMissingError(acks, 0, ticket.shortBecause) };
    return answer ? { reply, unacknowledged: answer } : { reply };
  }
}

/** What a WAIT that fell short found, for the writes sent without one after it. */
const shortfall = (answer: Error) =>
  answer instanceof ReplicaAcksMissingError
    ? `${answer.acknowledged} acknowledged within ${REPLICA_ACK_TIMEOUT_MS} ms`
    : answer.message;

/** Why a WAIT's answer does not acknowledge the write before it; undefined when it does. */
function waitAnswer(acks: number, waitError: Error | null | undefined, count: unknown): Error | undefined {
  if (waitError) return waitError;
  if (count === undefined) return new Error('WAIT got no reply');
  const acknowledged = Number(count);
  return acknowledged >= acks ? undefined : new ReplicaAcksMissingError(acks, acknowledged);
}
