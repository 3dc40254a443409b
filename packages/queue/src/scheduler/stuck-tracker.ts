/** What the watchdog should do about a hook it has just looked at. */
export type WatchAction =
  /** Put it back in the ready set: it has had work and no worker for the stuck-after time. */
  | { readonly kind: 'wake'; readonly since: number }
  /** Woken, and still stuck a stuck-after time later: report it (and wake it once more). */
  | { readonly kind: 'report'; readonly since: number }
  /** A hook reported stuck has a worker again, or nothing left to do. */
  | { readonly kind: 'recovered'; readonly since: number };

interface Suspect {
  /** When the watchdog first saw it stuck (it may have been stuck a sweep longer). */
  readonly since: number;
  wokenAt?: number;
  reported: boolean;
}

/** Most hooks followed at once; each is looked at every tick, so this bounds a tick's work. */
export const MAX_SUSPECTS = 1000;

/**
 * The watchdog's judgement, without Redis: a hook that looks stuck (work waiting, no worker on it, not in
 * the ready set) on every look for `stuckAfterMs` is woken; still stuck `stuckAfterMs` after that, it is
 * reported, and from then on woken again every `stuckAfterMs` until it recovers. A single look that finds
 * it attended forgets it: the worker's own hand-over (release the lease, re-check, signal) leaves a gap of
 * a round trip or two, and a hook caught in it is not stuck.
 */
export class StuckTracker {
  private readonly suspects = new Map<string, Suspect>();

  constructor(
    private readonly stuckAfterMs: number,
    private readonly maxSuspects = MAX_SUSPECTS,
  ) {}

  /** The hooks followed now: the watchdog looks at each of them every tick, not only when the sweep passes. */
  watched(): string[] {
    return [...this.suspects.keys()];
  }

  /** A hook reported stuck earlier (by this monitor before a restart, or another one): follow it until it recovers. */
  adoptReported(hookId: string, now: number): void {
    if (!this.suspects.has(hookId)) this.suspects.set(hookId, { since: now, wokenAt: now, reported: true });
  }

  forgetAll(): void {
    this.suspects.clear();
  }

  observe(hookId: string, stuck: boolean, now: number): WatchAction | undefined {
    const suspect = this.suspects.get(hookId);
    if (!stuck) {
      if (!suspect) return undefined;
      this.suspects.delete(hookId);
      return suspect.reported ? { kind: 'recovered', since: suspect.since } : undefined;
    }
    if (!suspect) {
      if (this.suspects.size < this.maxSuspects) this.suspects.set(hookId, { since: now, reported: false });
      return undefined;
    }
    const { since } = suspect;
    if (suspect.wokenAt === undefined) {
      if (now - since < this.stuckAfterMs) return undefined;
      suspect.wokenAt = now;
      return { kind: 'wake', since };
    }
    if (now - suspect.wokenAt < this.stuckAfterMs) return undefined;
    suspect.wokenAt = now;
    if (suspect.reported) return { kind: 'wake', since };
    suspect.reported = true;
    return { kind: 'report', since };
  }
}
