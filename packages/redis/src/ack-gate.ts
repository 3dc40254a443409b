import type { Cluster, Redis } from 'ioredis';
import calculateSlot from 'cluster-key-slot';

// A WAIT blocks its connection on the server: the commands sent after it on that connection run only once it
// answers, and WAITs sent one after another wait one after another. While the replicas answer, each takes a
// replication round trip. While none does (a failover until a replica is back, a frozen replica), each takes
// the whole timeout: a worker whose 30 holdings each sent a mark with its WAIT had the 30th answered after
// 30 s, a holding's mark retried for 15 s took a minute, and holdings were given up as stuck. A burst of
// publishes would be answered 503 one second apart, long after their producers gave up.
//
// So each connection (on a Redis Cluster: each master's) keeps its WAITs apart:
// - once a WAIT counted fewer replicas than required, the connection's acknowledged writes go without theirs
//   (answered at once, "not acknowledged", as after a WAIT that timed out: every caller tries again or answers
//   503), except one at a time, the probe, which takes its WAIT and tells, when it answers, whether the
//   replicas are back;
// - a write made while a WAIT of the connection is unanswered for longer than a replica takes to answer
//   (SLOW_WAIT_MS), or while MAX_PENDING_WAITS are, is held until a WAIT answers, then goes as that answer
//   says: with its WAIT if the replicas answered, without it otherwise. So a replica that stops answering in
//   the middle of traffic leaves at most MAX_PENDING_WAITS writes queued behind full timeouts, not every
//   write of the first second.
// Either way, a write goes with its WAIT in one pipeline, or without one; never a WAIT alone (replica-acks.ts).

/** Longer than any replica round trip of a healthy deployment; a WAIT pending longer suggests none answers. */
export const SLOW_WAIT_MS = 100;

/**
 * WAITs a connection has pending at most; the writes after them wait in the process. The server answers a
 * connection's WAITs one after another anyway (one replication round trip each), so a few keep it busy; more
 * would only wait a whole timeout each, one after another, if the replicas stopped answering.
 */
export const MAX_PENDING_WAITS = 8;

/**
 * How the next acknowledged write is sent: with its WAIT (then `answered`, with why it fell short when it
 * did), or without one (`shortBecause`: what the connection's last WAIT found).
 */
export type AckTicket =
  | { readonly wait: true; answered(shortBecause?: string): void }
  | { readonly wait: false; readonly shortBecause: string };

export class AckGate {
  /** When each WAIT sent and not yet answered was sent. */
  private readonly pending = new Set<{ readonly sentAt: number }>();
  /** Why the last WAIT that answered fell short (too few replicas, or it failed); undefined if it did not. */
  private shortBecause?: string;
  private readonly held: Array<() => void> = [];
  private timer?: NodeJS.Timeout;

  private readonly holdMs: number;

  constructor(waitTimeoutMs: number) {
    this.holdMs = 2 * waitTimeoutMs;
  }

  async enter(): Promise<AckTicket> {
    // Held at most twice as long as a WAIT can take (its answer is due after one timeout, and must not lose
    // the race to this one): a WAIT whose answer never comes holds nothing up for good.
    const until = performance.now() + this.holdMs;
    while (this.shortBecause === undefined && this.inDoubt() && performance.now() < until)
      await this.nextAnswer();
    if (this.shortBecause !== undefined && this.pending.size > 0)
      return { wait: false, shortBecause: this.shortBecause };
    const sent = { sentAt: performance.now() };
    this.pending.add(sent);
    return {
      wait: true,
      answered: (shortBecause) => {
        this.pending.delete(sent);
        this.shortBecause = shortBecause;
        this.wakeHeld();
      },
    };
  }

  /** Until a WAIT of the connection answers, or at most holdMs (one timer for every write held). */
  private nextAnswer(): Promise<void> {
    this.timer ??= setTimeout(this.wakeHeld, this.holdMs).unref();
    return new Promise((resolve) => this.held.push(resolve));
  }

  private readonly wakeHeld = () => {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const wake of this.held.splice(0)) wake();
  };

  /** Too many WAITs pending to add one more, or one pending for longer than a replica takes to answer. */
  private inDoubt(): boolean {
    if (this.pending.size >= MAX_PENDING_WAITS) return true;
    const now = performance.now();
    for (const { sentAt } of this.pending) if (now - sentAt > SLOW_WAIT_MS) return true;
    return false;
  }
}

const gates = new WeakMap<object, Map<string, AckGate>>();

/** The gate of the connection a write of `key` goes on: the client's, or on a Cluster its slot's master's. */
export function ackGateOf(redis: Redis, key: string, timeoutMs: number): AckGate {
  const node = redis.isCluster ? ((redis as unknown as Cluster).slots[calculateSlot(key)]?.[0] ?? '') : '';
  let byNode = gates.get(redis);
  if (!byNode) gates.set(redis, (byNode = new Map()));
  let gate = byNode.get(node);
  if (!gate) byNode.set(node, (gate = new AckGate(timeoutMs)));
  return gate;
}
