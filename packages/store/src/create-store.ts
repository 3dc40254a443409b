import { type Clock, type ErasureTags, type EventCatalog, systemClock } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import type { Redis } from 'ioredis';
import { RedisAccounts } from './accounts';
import { DEFAULT_ACTIVITY_MAX, RedisActivityFeed } from './activity-feed';
import { RedisAttemptLedger } from './attempt-ledger';
import type {
  Accounts,
  ActivityFeed,
  AttemptLedger,
  HookQueueAdmin,
  Hooks,
  SuspensionRule,
  WaitingQueue,
} from './contracts';
import { RedisErasures } from './erasures';
import { HeldEvents } from './held-events';
import { RedisHooks } from './hooks';
import type { SecretBox } from './secret-box';

export interface StoreDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly secretBox: SecretBox;
  /** `HookQueues` from @hookline/redis. */
  readonly hookQueues: HookQueueAdmin & WaitingQueue;
  readonly clock?: Clock;
  readonly activityMax?: number;
  /** The event kinds hooks may subscribe to (HOOKLINE_EVENT_CATALOG); call_created alone when absent. */
  readonly catalog?: EventCatalog; /** HOOKLINE_EVENT_TYPE_HEADER, which no extra header may name; the default when absent. */
  readonly eventTypeHeader?: string;
  /**
   * The suspension rule, for a process that records outcomes (a worker): its outcome script then pauses a hook
   * whose failure brings the streak to the rule, so the next event is held, not sent.
   */
  readonly suspensionRule?: SuspensionRule;
}

export interface Store {
  readonly accounts: Accounts;
  readonly hooks: Hooks;
  readonly activity: ActivityFeed;
  readonly attempts: AttemptLedger;
  /** Erasures of personal data: accepted by the front doors, run by the monitor. */
  readonly erasures: RedisErasures;
  /** The erasure fence's tags (keyed from the secret box's key), for the producer, workers and monitor. */
  readonly erasureTags: ErasureTags;
  /** A suspended hook's held events as the website and the API show them. */
  readonly held: HeldEvents;
}

export function createStore(deps: StoreDeps): Store {
  const clock = deps.clock ?? systemClock;
  const activity = new RedisActivityFeed(deps.redis, deps.keys, deps.activityMax ?? DEFAULT_ACTIVITY_MAX);
  const erasureTags = deps.secretBox.erasureTags();
  return {
    accounts: new RedisAccounts(deps.redis, deps.keys, activity, clock),
    hooks: new RedisHooks({ ...deps, activity, clock }),
    activity,
    attempts: new RedisAttemptLedger(deps.redis, deps.keys, deps.secretBox, deps.suspensionRule),
    erasures: new RedisErasures({ ...deps, activity, clock, erasureTags }),
    erasureTags,
    held: new HeldEvents(deps.redis, deps.keys, deps.hookQueues, erasureTags),
  };
}
