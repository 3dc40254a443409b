import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';

/** Fewest and most hooks looked at per tick; see `sweepBatch`. */
export const SWEEP_MIN = 100;
export const SWEEP_MAX = 5000;

/**
 * How many hooks to look at per tick so that a sweep over all of them takes about half the stuck-after time
 * (a stuck hook is then seen, and woken, within 1.5 times it), within [SWEEP_MIN, SWEEP_MAX]. At 100,000 hooks,
 * a 60 s stuck-after and 1 s ticks that is 3,334 hooks a second.
 */
export function sweepBatch(totalHooks: number, stuckAfterMs: number, tickMs: number): number {
  const ticksPerSweep = Math.max(1, stuckAfterMs / 2 / tickMs);
  return Math.min(SWEEP_MAX, Math.max(SWEEP_MIN, Math.ceil(totalHooks / ticksPerSweep)));
}

/**
 * Walks the set of every hook a batch at a time with SSCAN, carrying the cursor from one tick to the next:
 * each tick costs a bounded number of hooks however many there are, and every hook present for a whole
 * sweep is visited at least once in it.
 */
export class HookSweep {
  private cursor = '0';

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** About `count` hook ids (SSCAN's COUNT is a hint), and whether this batch finished a sweep. */
  async next(count: number): Promise<{ ids: string[]; sweepEnded: boolean }> {
    const ids: string[] = [];
    do {
      const [cursor, batch] = await this.redis.sscan(
        this.keys.allHooks(),
        this.cursor,
        'COUNT',
        count - ids.length,
      );
      this.cursor = cursor;
      ids.push(...batch);
    } while (this.cursor !== '0' && ids.length < count);
    return { ids, sweepEnded: this.cursor === '0' };
  }

  restart(): void {
    this.cursor = '0';
  }
}
