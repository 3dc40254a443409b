/** What the watchdog saw of a hook on one look. */
export type Sighting =
  /** Work for a worker, and no worker coming: in neither the ready set nor a live lease, or no worker alive. */
  | 'stuck'
  /** Work, and in the ready set while some worker is alive: a worker will claim it. */
  | 'signalled'
  /** A worker is on it, or there is nothing for a worker to do. */
  | 'served';

/** What the watchdog should do about a hook it has just looked at. */
export type WatchAction =
  /** Put it back in the ready set: it has had work and no worker for the stuck-after time. */
  | { readonly kind: 'wake'; readonly since: number }
  /** Woken, and stuck again a stuck-after time later without a worker having served it: report it (and wake it). */
  | { readonly kind: 'report'; readonly since: number }
  /** A hook reported stuck has a worker on it, or nothing left to do. */
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
 * The watchdog's judgement, without Redis. A hook seen stuck on every look for `stuckAfterMs` is woken (put
 * back in the ready set). Only a worker serving it clears it after that: sitting in the ready set is what a
 * woken hook does until a worker claims it, so it is neither recovered nor stuck then; seen stuck again
 * `stuckAfterMs` after its wake-up, it is reported, and from then on woken again every `stuckAfterMs` until a
 * worker serves it. Before any wake-up, a single look that finds it signalled or served forgets it: the
 * producer signalled it, or a worker's own hand-over (release the lease, re-check, signal) was caught in the
 * middle.
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

  observe(hookId: string, seen: Sighting, now: number): WatchAction | undefined {
    const suspect = this.suspects.get(hookId);
    if (!suspect) {
      if (seen === 'stuck' && this.suspects.size < this.maxSuspects)
        this.suspects.set(hookId, { since: now, reported: false });
      return undefined;
    }
    const { since } = suspect;
    if (seen === 'served' || (seen === 'signalled' && suspect.wokenAt === undefined)) {
      this.suspects.delete(hookId);
      return suspect.reported ? { kind: 'recovered', since } : undefined;
    }
    if (seen === 'signalled') return undefined;
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
