import type { Redis } from 'ioredis';
import type { Config } from '@hookline/config';
import { type Clock, type DeliverableEvent, type EventCatalog, type HookEnabler } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import type { HistoryReader } from '@hookline/history';
import type { Accounts, ActivityFeed, Hooks } from '@hookline/store';
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
    readonly activity: ActivityFeed;
  };
  /** The delivery history: hooks' logs, one attempt, the search by call, health. */
  readonly history: Pick<HistoryReader, 'listForHook' | 'searchAccount' | 'attempt' | 'health'>;
  readonly producer: {
    publishTest(accountId: string, hookId: string): Promise<{ id: string }>;
    /** Send again: the same event to one hook, at the tail of its queue, recorded `manual` under `attemptId`. */
    resend(accountId: string, hookId: string, event: DeliverableEvent, attemptId: string): Promise<void>;
  };
  readonly control: HookEnabler;
  /** waitingCount(hookId) is the number of events held while a hook is suspended; waitingData lists them. */
  readonly hookQueues: {
    waitingCount(hookId: string): Promise<number>;
    waitingData(hookId: string, start: number, count: number): Promise<unknown[]>;
  };
  readonly logger: Logger;
  readonly clock?: Clock;
}
