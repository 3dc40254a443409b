import { normalFilter, type HookEvents, type HookFilter } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import type { ChainableCommander, Redis } from 'ioredis';
import { filterToField } from './hook-filters';
import { eventsToField } from './hook-record';
import { STORE_SCRIPTS } from './scripts';

// What a change of a hook writes in its account's slot after its record: the subscription and the filter, which
// the accept script reads there. Two changes of one hook write their records in version order (hook-change.lua);
// each one's routing write carries the version it wrote, so an older change's late write cannot land over a
// newer one's (hook-routing-set.lua).

export class HookRouting {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /**
   * The subscription and filter a change gives (either may be absent: left as they are), written only while the
   * hook is in its account's index (false when it left it: deleted) and never over those a later version wrote.
   */
  async setForChange(
    accountId: string,
    hookId: string,
    version: number,
    change: { readonly events?: HookEvents; readonly filter?: HookFilter | null },
  ): Promise<boolean> {
    const result = await STORE_SCRIPTS.hookRoutingSet.run(
      this.redis,
      [
        this.keys.accountHooks(accountId),
        this.keys.accountHookEvents(accountId),
        this.keys.accountHookFilters(accountId),
        this.keys.accountHookRoutingVersions(accountId),
      ],
      [
        hookId,
        String(version),
        change.events !== undefined ? '1' : '0',
        change.events !== undefined ? eventsToField(change.events) : '',
        change.filter !== undefined ? '1' : '0',
        change.filter !== undefined ? filterToField(normalFilter(change.filter)) : '',
      ],
    );
    return Number(result) === 1;
  }

  /** Queued into the transaction that takes a hook out of its account: the versions go with it. */
  removeInto(tx: ChainableCommander, accountId: string, hookId: string): void {
    tx.hdel(this.keys.accountHookRoutingVersions(accountId), `${hookId} events`, `${hookId} filter`);
  }
}
