import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';
import { ENGINE_SCRIPTS } from '../scripts';

/** A hook in the index of hooks with work, and the version its last signal gave it. */
export interface IndexedHook {
  readonly hookId: string;
  readonly version: string;
}

/**
 * The index of hooks that have (or lately had) jobs or unwritten history (`hooksWithWork`): what the watchdog
 * walks instead of every hook, so that its cost follows the hooks with work, not the hooks configured.
 *
 * Why nothing with work is missing from it: jobs are added before the hook is signalled, and the signal
 * script writes the index entry itself (so a crash cannot lose one without the other); a producer killed
 * between its adds and its signal leaves its inbox entry open, and the monitor's fan-out recovery signals
 * again. An entry is dropped only by `forget`, after the watchdog found the hook without jobs and with an
 * empty outbox, and only if no signal raised its version since it was read. Hooks that had jobs before the
 * index existed (an upgrade) or whose keys were changed by hand are found by the one walk over every hook
 * that a monitor makes when it takes the watchdog over (`adopt`).
 */
export class WorkIndex {
  private cursor = '0';

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  size(): Promise<number> {
    return this.redis.zcard(this.keys.hooksWithWork());
  }

  /**
   * About `count` entries (ZSCAN's COUNT is a hint), carrying the cursor from one call to the next, and
   * whether this batch finished a pass: every hook present for a whole pass is returned at least once in it.
   */
  async next(count: number): Promise<{ hooks: IndexedHook[]; passEnded: boolean }> {
    const hooks: IndexedHook[] = [];
    do {
      const [cursor, flat] = await this.redis.zscan(
        this.keys.hooksWithWork(),
        this.cursor,
        'COUNT',
        count - hooks.length,
      );
      this.cursor = cursor;
      for (let i = 0; i < flat.length; i += 2) hooks.push({ hookId: flat[i]!, version: flat[i + 1]! });
    } while (this.cursor !== '0' && hooks.length < count);
    return { hooks, passEnded: this.cursor === '0' };
  }

  restart(): void {
    this.cursor = '0';
  }

  /** Adds hooks found with work outside the index (the walk over every hook); an entry present is kept. */
  async adopt(hookIds: readonly string[], now: number): Promise<void> {
    if (hookIds.length === 0) return;
    const args: (string | number)[] = [];
    for (const id of hookIds) args.push(now, id);
    await this.redis.zadd(this.keys.hooksWithWork(), 'NX', ...args);
  }

  /** Drops hooks found idle, each unless signalled since its version was read; how many were dropped. */
  async forget(hooks: readonly IndexedHook[]): Promise<number> {
    if (hooks.length === 0) return 0;
    return Number(
      await ENGINE_SCRIPTS.workForget.run(
        this.redis,
        [this.keys.hooksWithWork()],
        hooks.flatMap((h) => [h.hookId, h.version]),
      ),
    );
  }
}
