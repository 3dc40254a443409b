import type { Redis } from 'ioredis';
import type { Config } from '@hookline/config';
import { type Clock, type EventCatalog, type HookEnabler, type HookSender } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import type { AuditTrail, HistoryReader } from '@hookline/history';
import type { Accounts, ActivityFeed, HeldEvents, Hooks, PortalLinks } from '@hookline/store';
import type { Logger } from '@hookline/telemetry';
import type { BrandSettings } from './view/brand';

/** What the website needs from the rest of hookline; structural, so tests and the all-in-one wire real parts. */
export interface WebDeps {
  /** `eventCatalog`: the event kinds hooks subscribe to (HOOKLINE_EVENT_CATALOG); call_created alone when absent. */
  readonly config: Pick<
    Config,
    | 'HOOKLINE_EVENT_TYPE_HEADER'
    | 'HOOKLINE_PUBLIC_URL'
    | 'HOOKLINE_DELIVERY_TIMEOUT_MS'
    // The suspension rule, stated on hook pages in words.
    | 'HOOKLINE_SUSPEND_AFTER_FAILURES'
    | 'HOOKLINE_SUSPEND_AFTER_MS'
  > &
    Partial<Pick<Config, 'HOOKLINE_FRAME_ANCESTORS'>> &
    BrandSettings & {
      readonly eventCatalog?: EventCatalog;
      /** Whether deliveries carry `traceparent`: the request preview shows it then. */
      readonly HOOKLINE_TRACE_PROPAGATE?: boolean;
    };
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly store: {
    readonly accounts: Accounts;
    readonly hooks: Hooks;
    readonly activity: ActivityFeed;
    /** A suspended hook's held events, a page at a time (the API lists them from the same reader). */
    readonly held: Pick<HeldEvents, 'page'>;
  };
  /** The delivery history: hooks' logs, one attempt, the search by call, health. */
  readonly history: Pick<
    HistoryReader,
    'listForHook' | 'listForAccount' | 'attempt' | 'health' | 'sentNothing'
  >;
  readonly producer: HookSender;
  readonly control: HookEnabler;
  /** The audit log: every change made on the website is recorded with who made it (product.md §16). */
  readonly audit: Pick<AuditTrail, 'record' | 'list' | 'waiting'>;
  /** Sign-in links made by the operator (POST /v1/accounts/{acct}/portal-links), used here once. */
  readonly portalLinks: Pick<PortalLinks, 'use'>;
  /** waitingCount(hookId) is the number of events held while a hook is suspended. */
  readonly hookQueues: {
    waitingCount(hookId: string): Promise<number>;
  };
  readonly logger: Logger;
  readonly clock?: Clock;
}
