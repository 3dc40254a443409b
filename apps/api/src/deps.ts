import type { Redis } from 'ioredis';
import type { Config } from '@hookline/config';
import type { EventCatalog, HookEnabler, HookSender, PublishEventInput } from '@hookline/core';
import type { AuditTrail, HistoryReader } from '@hookline/history';
import type { EgressFleetWait } from '@hookline/redis';
import type { Accounts, ActivityFeed, HeldEvents, Hooks, PortalLinks, RedisErasures } from '@hookline/store';
import type { Logger, Metrics } from '@hookline/telemetry';

/**
 * Everything the API needs, passed in: main.ts wires the real parts, the all-in-one start shares its own, and
 * tests build them against a real Redis. Structural types, so any implementation of these shapes will do.
 */
export interface ApiDeps {
  /**
   * `eventCatalog`: the event kinds (HOOKLINE_EVENT_CATALOG); call_created alone when absent.
   * HOOKLINE_EVENT_TYPE_HEADER: the header hookline sets, refused as a hook's extra header.
   */
  readonly config: Pick<Config, 'HOOKLINE_API_KEY' | 'HOOKLINE_EVENT_TYPE_HEADER'> &
    Partial<Pick<Config, 'HOOKLINE_PUBLIC_URL'>> & { readonly eventCatalog?: EventCatalog };
  /** Fail-fast client (no offline queue): a Redis outage turns into a 503 instead of a hung request. */
  readonly redis: Redis;
  readonly store: {
    readonly accounts: Accounts;
    readonly hooks: Hooks;
    readonly activity: ActivityFeed;
    readonly erasures: Pick<RedisErasures, 'request' | 'get'>;
    /** A hook's held events and their count, read as the website reads them. */
    readonly held: Pick<HeldEvents, 'page' | 'count'>;
  };
  /** The delivery history (PostgreSQL, and the outboxes of records not written yet). */
  readonly history: Pick<HistoryReader, 'listForHook' | 'listForAccount' | 'attempt' | 'health'>;
  /** How long the oldest attempt record not yet written to the database has waited (ms; 0 when none). */
  historyLagMs(): Promise<number>;
  /** Whether the history database answers within `ms` (readiness). */
  historyAnswers(ms: number): Promise<{ ok: true; ms: number } | { ok: false; reason: string }>;
  /**
   * With HOOKLINE_EGRESS_PROXY: the proxy as it may be named (host:port), whether it accepts a connection
   * within `ms`, and the hooks the workers keep waiting on it (readiness reports both; neither makes the HTTP
   * tier unready).
   */
  readonly egressProxy?: {
    readonly shown: string;
    answers(ms: number): Promise<{ ok: true; ms: number } | { ok: false; reason: string }>;
    waiting(): Promise<EgressFleetWait | undefined>;
  };
  readonly producer: HookSender & {
    /** `options.trace`: the request's W3C trace context headers, unchecked (the producer checks them). */
    publish(
      accountId: string,
      input: PublishEventInput,
      options?: { trace?: { traceparent?: unknown; tracestate?: unknown } },
    ): Promise<{ id: string; hooks: string[]; duplicate: boolean }>;
  };
  readonly control: HookEnabler;
  /** The audit log (product.md §16): every change made through the API is recorded with the key's fingerprint. */
  readonly audit: Pick<AuditTrail, 'record' | 'list'>;
  /** Sign-in links into the website (product.md §16). */
  readonly portalLinks: Pick<PortalLinks, 'create'>;
  readonly metrics: Pick<Metrics, 'eventsAccepted' | 'registry'>;
  readonly logger: Logger;
}

/** Who acted, as the activity feed records it: requests with the operator key act as the operator. */
export const OPERATOR = 'operator';
