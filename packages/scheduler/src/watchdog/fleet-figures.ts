import { deliverable, type HookBacklog } from '@hookline/redis';

/** A hook and when its oldest waiting event was accepted (ms since the epoch). */
export interface HookWait {
  readonly hookId: string;
  readonly since: number;
}

/** The fleet's backlog as of the watchdog's last full sweep over every hook. */
export interface FleetFigures {
  /** Events waiting for a worker in every hook queue (held events of suspended hooks are not counted). */
  readonly waiting: number;
  /** The hooks with the oldest waiting events, oldest first (at most `TOP_HOOKS`). */
  readonly oldest: readonly HookWait[];
  /** When that sweep ended (ms since the epoch). */
  readonly at: number;
}

/** How many of the worst hooks get a series of their own: a bounded label set, whatever the fleet's size. */
export const TOP_HOOKS = 10;

/** Adds `wait` to `list` (oldest first, one entry per hook, at most `k`). */
function keepOldest(list: HookWait[], wait: HookWait, k: number): HookWait[] {
  const others = list.filter((w) => w.hookId !== wait.hookId);
  if (others.length >= k && wait.since >= others[others.length - 1]!.since) return others;
  return [...others, wait].sort((a, b) => a.since - b.since).slice(0, k);
}

/**
 * The figures of one sweep, gathered batch by batch. A set scan may return a hook twice when the set grows
 * during the sweep; its events are then counted twice in `waiting` for that sweep (the worst hooks, keyed by
 * hook, are not): rare and short-lived, and cheaper than remembering 100,000 ids.
 */
export class SweepTally {
  private waiting = 0;
  private oldest: HookWait[] = [];

  constructor(private readonly k = TOP_HOOKS) {}

  add(hookId: string, backlog: HookBacklog): void {
    const count = deliverable(backlog);
    this.waiting += count;
    if (count > 0 && backlog.oldestWaitingAt !== undefined)
      this.oldest = keepOldest(this.oldest, { hookId, since: backlog.oldestWaitingAt }, this.k);
  }

  /** The sweep's figures; the tally starts over. */
  finish(at: number): FleetFigures {
    const figures = { waiting: this.waiting, oldest: this.oldest, at };
    this.waiting = 0;
    this.oldest = [];
    return figures;
  }
}

/**
 * The worst hooks looked at again between sweeps: a hook whose old events went out since has its newer
 * oldest event, or leaves the list when nothing waits. The list only shrinks until the next sweep, so the
 * fleet's oldest age can read low for a sweep, never high.
 */
export function refreshOldest(
  figures: FleetFigures,
  backlogs: ReadonlyMap<string, HookBacklog>,
): FleetFigures {
  const oldest: HookWait[] = [];
  for (const wait of figures.oldest) {
    const backlog = backlogs.get(wait.hookId);
    if (!backlog) oldest.push(wait);
    else if (deliverable(backlog) > 0 && backlog.oldestWaitingAt !== undefined)
      oldest.push({ hookId: wait.hookId, since: backlog.oldestWaitingAt });
  }
  return { ...figures, oldest: oldest.sort((a, b) => a.since - b.since) };
}

/** As the figures are kept in Redis (a HASH), so that every monitor exports the same ones. */
export function figuresToHash(figures: FleetFigures): Record<string, string> {
  return {
    waiting: String(figures.waiting),
    oldest: JSON.stringify(figures.oldest.map((w) => [w.hookId, w.since])),
    at: String(figures.at),
  };
}

export function figuresFromHash(hash: Record<string, string>): FleetFigures | undefined {
  if (hash.at === undefined) return undefined;
  const pairs = JSON.parse(hash.oldest ?? '[]') as [string, number][];
  return {
    waiting: Number(hash.waiting ?? 0),
    oldest: pairs.map(([hookId, since]) => ({ hookId, since })),
    at: Number(hash.at),
  };
}
