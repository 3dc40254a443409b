import type { Redis } from 'ioredis';

// "Write, then WAIT": the writes hookline's promises rest on are acknowledged by replicas before hookline
// acts on them (HOOKLINE_REDIS_REPLICA_ACKS). Replication is asynchronous, so a promoted replica can lack the
// primary's last writes: an attempt mark (another worker then sends the event again), an accepted event (a
// 202 for an event that is gone), an outcome and its history record.
//
// Scripts cannot call WAIT, so it is sent right after the write, on the same connection (WAIT waits for the
// caller's own last write): in a pipeline with a read of a key in the written slot, which routes it to that
// slot's node in a Redis Cluster. The requirement belongs to the connection (set once where the connection
// is made, from the settings), so every writer that must wait asks `confirmWrites` and needs no wiring.

/** How long one WAIT may take before the write counts as not acknowledged. */
export const REPLICA_ACK_TIMEOUT_MS = 1000;

/** A write fewer replicas acknowledged than required (the API answers 503 for it). */
export class ReplicaAcksMissingError extends Error {
  constructor(
    readonly required: number,
    readonly acknowledged: number,
  ) {
    super(
      `${required} replica acknowledgement${required === 1 ? '' : 's'} required (HOOKLINE_REDIS_REPLICA_ACKS), ` +
        `${acknowledged} received within ${REPLICA_ACK_TIMEOUT_MS} ms`,
    );
    this.name = 'ReplicaAcksMissingError';
  }
}

const required = new WeakMap<object, number>();

/** From now on, `confirmWrites` on this client waits for `acks` replicas (a duplicate() does not). */
export function requireReplicaAcks<T extends Redis>(redis: T, acks: number): T {
  if (acks > 0) required.set(redis, acks);
  return redis;
}

/** How many replica acknowledgements writes on this client need (0: none). */
export function replicaAcksOf(redis: object): number {
  return required.get(redis) ?? 0;
}

/**
 * After a write on `redis` to `slotKey`'s slot: resolves once the required replicas have it (at once when
 * none are required); throws ReplicaAcksMissingError otherwise.
 */
export async function confirmWrites(redis: Redis, slotKey: string): Promise<void> {
  const acks = replicaAcksOf(redis);
  if (acks === 0) return;
  const replies = await redis.pipeline().exists(slotKey).wait(acks, REPLICA_ACK_TIMEOUT_MS).exec();
  const [, waited] = replies ?? [];
  if (!waited || waited[0]) throw waited?.[0] ?? new Error('WAIT got no reply');
  const acknowledged = Number(waited[1]);
  if (acknowledged < acks) throw new ReplicaAcksMissingError(acks, acknowledged);
}
