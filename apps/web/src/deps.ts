import type { Redis } from 'ioredis';
import type { Config } from '@hookline/config';
import { type EventCatalog, type HeldChoice, type HookView, type Clock } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import type { Accounts, ActivityFeed, DeliveryLog, Hooks } from '@hookline/store';
import type { Logger } from '@hookline/telemetry';

/** What the website needs from the rest of hookline; structural, so tests and the all-in-one wire real parts. */
export interface WebDeps {
  /** `eventCatalog`: the event kinds hooks subscribe to (HOOKLINE_EVENT_CATALOG); call_created alone when absent. */
  readonly config: Pick<
    Config,
    'HOOKLINE_EVENT_TYPE_HEADER' | 'HOOKLINE_PUBLIC_URL' | 'HOOKLINE_DELIVERY_TIMEOUT_MS'
  > & { readonly eventCatalog?: EventCatalog };
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly store: {
    readonly accounts: Accounts;
    readonly hooks: Hooks;
    readonly deliveryLog: DeliveryLog;
    readonly activity: ActivityFeed;
  };
  readonly producer: { publishTest(accountId: string, hookId: string): Promise<{ id: string }> };
  readonly control: {
    enable(accountId: string, hookId: string, held: HeldChoice, actor: string): Promise<HookView | undefined>;
  };
  /** waitingCount(hookId) is the number of events held while a hook is suspended. */
  readonly hookQueues: { waitingCount(hookId: string): Promise<number> };
  readonly logger: Logger;
  readonly clock?: Clock;
}
