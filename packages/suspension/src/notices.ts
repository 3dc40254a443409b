import type { Redis } from 'ioredis';
import type { DeliveryRecord } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';

// A hook's transitions that people are told about (product.md §11). Each is appended once, by the caller that
// made the transition (the streak script elects one monitor for `failing` and `suspended`; the paused flag's
// atomic flip elects one caller for `enabled`), and the monitors' notifier sends it on.

/** `hook.stuck` (the watchdog's report) goes to the operator only: it is not the customer's to fix. */
export type NoticeKind = 'hook.failing' | 'hook.suspended' | 'hook.enabled' | 'hook.stuck';

export interface NoticeFailure {
  readonly attempted_at: string;
  readonly outcome: string;
  readonly status_code?: number;
  readonly error?: string;
}

export interface Notice {
  readonly kind: NoticeKind;
  readonly accountId: string;
  readonly hookId: string;
  readonly at: string;
  /** Why, as a sentence: the streak's reason, or what the re-enable did. */
  readonly reason: string;
  /** Who made the transition (`monitor`, `customer:…`, `operator`, `admin:…`). */
  readonly actor: string;
  /** The failures in a row so far (failing and suspended notices); the events waiting (stuck notices). */
  readonly count?: number;
  /** The last failures, oldest first, at most NOTICE_FAILURES. */
  readonly failures: readonly NoticeFailure[];
}

export const NOTICE_FAILURES = 3;
export const NOTICE_GROUP = 'notifier';
/** The stream is trimmed to about this many notices: a notifier far behind it loses the oldest. */
const NOTICES_MAXLEN = 100_000;

export function noticeFailures(records: readonly DeliveryRecord[]): NoticeFailure[] {
  return records.slice(-NOTICE_FAILURES).map((r) => ({
    attempted_at: r.attempted_at,
    outcome: r.outcome,
    ...(r.status_code !== undefined ? { status_code: r.status_code } : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
  }));
}

export async function announce(redis: Redis, keys: RedisKeys, notice: Notice): Promise<void> {
  await redis.xadd(keys.notices(), 'MAXLEN', '~', NOTICES_MAXLEN, '*', 'notice', JSON.stringify(notice));
}

/** A notice as the stream holds it; undefined for an entry that is not one. */
export function parseNotice(fields: readonly string[] | null): Notice | undefined {
  const at = fields?.indexOf('notice') ?? -1;
  if (!fields || at < 0 || at + 1 >= fields.length) return undefined;
  try {
    const notice = JSON.parse(fields[at + 1]!) as Notice;
    return typeof notice.hookId === 'string' && typeof notice.kind === 'string' ? notice : undefined;
  } catch {
    return undefined;
  }
}
