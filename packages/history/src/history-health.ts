import {
  isDropped,
  OUTCOMES,
  sentNothingBecause,
  type DroppedOutcome,
  type RecordedOutcome,
} from '@hookline/core';
import type { SqlClient } from './sql-client';

// What the figures count, as a delivery dashboard does: attempts are the tries hookline made to deliver an
// event (the outcomes a streak counts, `delivered` to `unknown`), and everything but `dropped` is about them.
// Events dropped without an attempt (held ones expired or discarded, erased ones) are counted apart: they say
// nothing of the endpoint, and counted among attempts they would make a success rate of events never sent.

/** Outcomes of an attempt the service made (or may have made). */
export type AttemptedOutcome = Exclude<RecordedOutcome, DroppedOutcome>;
const ATTEMPTED = OUTCOMES.filter((o): o is AttemptedOutcome => !isDropped(o));
const DROPPED = OUTCOMES.filter(isDropped);
const HOUR_MS = 3600 * 1000;
/** The attempts latency is taken over (see `p50_ms`): a `timed_out` one has no status, and waited the deadline. */
const ANSWERED_OR_TIMED_OUT = "status_code IS NOT NULL OR outcome = 'timed_out'";

export interface HookHealth {
  readonly hours: number;
  /** Attempts made: the sum of `by_outcome`. */
  readonly attempts: number;
  readonly delivered: number;
  /** delivered / attempts, or null with no attempts. */
  readonly success_rate: number | null;
  /**
   * How long the endpoint took to answer, in ms: attempts it answered (any status) and those that timed out
   * waiting for an answer, at their duration. Not attempts that failed before an answer could come (refused,
   * DNS, TLS, blocked, no OAuth 2.0 token) nor interrupted ones: their time says nothing of the endpoint's
   * speed. Null with none.
   */
  readonly p50_ms: number | null;
  readonly p99_ms: number | null;
  /**
   * Every outcome recorded in the window, each present (0 included): the attempts' six, which add up to
   * `attempts`, and the dropped ones, also counted in `dropped` (kept here as the API has always listed them).
   */
  readonly by_outcome: Record<RecordedOutcome, number>;
  /** Events dropped without an attempt, by outcome: not in `attempts`, the success rate or the series. */
  readonly dropped: Record<DroppedOutcome, number>;
  readonly last_error?: {
    readonly attempt_id: string;
    readonly attempted_at: string;
    readonly outcome: RecordedOutcome;
    readonly status_code?: number;
    readonly error?: string;
  };
  /** One entry per hour of the window, oldest first, empty hours included: attempts, as `attempts` counts them. */
  readonly series: { readonly hour: string; readonly delivered: number; readonly not_delivered: number }[];
}

/** The start of the window of the last `hours` whole hours, the current one included. */
const windowStart = (now: number, hours: number) =>
  Math.floor(now / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS;

/** Of the window's `error` attempts (by_outcome's `error`), those that sent nothing to the endpoint, by why. */
export interface SentNothingCounts {
  /** No OAuth 2.0 token (or not in time). */
  readonly no_token: number;
  /** Kept back by the egress proxy, or credentials that could not be read. */
  readonly kept_back: number;
}

/**
 * Pages badge such attempts by why (core's sentNothingBecause), not as a connection error, and their counts by
 * outcome must read the same. Told by the recorded error's words, which SQL does not parse: one row per distinct
 * error of the window, a few per hook. No new column: the records already say it.
 */
export async function sentNothingCounts(
  client: SqlClient,
  hookId: string,
  hours: number,
  now: number,
): Promise<SentNothingCounts> {
  const rows = await client.query<{ error: string | null; n: number }>(
    `SELECT error, count(*) AS n FROM attempts
      WHERE hook_id = $1 AND attempted_at >= $2 AND outcome = 'error' GROUP BY error`,
    [hookId, new Date(windowStart(now, hours))],
  );
  const counts = { no_token: 0, kept_back: 0 };
  for (const row of rows) {
    const why = sentNothingBecause(row.error ?? undefined);
    if (why) counts[why] += Number(row.n);
  }
  return counts;
}

/** A hook's health over the last `hours` hours: totals, latency, outcomes, the last failure, an hourly series. */
export async function hookHealth(
  client: SqlClient,
  hookId: string,
  hours: number,
  now: number,
): Promise<HookHealth> {
  const firstHour = windowStart(now, hours);
  const since = new Date(firstHour);
  const params = [hookId, since, ATTEMPTED];
  const [totals, outcomes, hourly, last] = await Promise.all([
    client.query<{ attempts: number; delivered: number; p50: number | null; p99: number | null }>(
      `SELECT count(*) FILTER (WHERE outcome = ANY($3)) AS attempts,
              count(*) FILTER (WHERE outcome = 'delivered') AS delivered,
              percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE ${ANSWERED_OR_TIMED_OUT}) AS p50,
              percentile_disc(0.99) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE ${ANSWERED_OR_TIMED_OUT}) AS p99
         FROM attempts WHERE hook_id = $1 AND attempted_at >= $2`,
      params,
    ),
    client.query<{ outcome: RecordedOutcome; n: number }>(
      `SELECT outcome, count(*) AS n FROM attempts WHERE hook_id = $1 AND attempted_at >= $2 GROUP BY outcome`,
      [hookId, since],
    ),
    client.query<{ hour: Date; delivered: number; not_delivered: number }>(
      `SELECT date_trunc('hour', attempted_at) AS hour,
              count(*) FILTER (WHERE outcome = 'delivered') AS delivered,
              count(*) FILTER (WHERE outcome = ANY($3) AND outcome <> 'delivered') AS not_delivered
         FROM attempts WHERE hook_id = $1 AND attempted_at >= $2 GROUP BY 1`,
      params,
    ),
    client.query<{
      attempt_id: string;
      attempted_at: Date;
      outcome: RecordedOutcome;
      status_code: number | null;
      error: string | null;
    }>(
      `SELECT attempt_id, attempted_at, outcome, status_code, error FROM attempts
        WHERE hook_id = $1 AND attempted_at >= $2 AND outcome = ANY($3) AND outcome <> 'delivered'
        ORDER BY attempted_at DESC, attempt_id DESC LIMIT 1`,
      params,
    ),
  ]);
  const t = totals[0] ?? { attempts: 0, delivered: 0, p50: null, p99: null };
  const byOutcome = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<RecordedOutcome, number>;
  const dropped = Object.fromEntries(DROPPED.map((o) => [o, 0])) as Record<DroppedOutcome, number>;
  for (const row of outcomes) {
    byOutcome[row.outcome] = row.n;
    if (isDropped(row.outcome)) dropped[row.outcome] = row.n;
  }
  const perHour = new Map(hourly.map((row) => [row.hour.getTime(), row]));
  const series = Array.from({ length: hours }, (_, i) => {
    const hour = firstHour + i * HOUR_MS;
    const row = perHour.get(hour);
    return {
      hour: new Date(hour).toISOString(),
      delivered: row?.delivered ?? 0,
      not_delivered: row?.not_delivered ?? 0,
    };
  });
  const failure = last[0];
  return {
    hours,
    attempts: t.attempts,
    delivered: t.delivered,
    success_rate: t.attempts > 0 ? t.delivered / t.attempts : null,
    p50_ms: t.p50,
    p99_ms: t.p99,
    by_outcome: byOutcome,
    dropped,
    ...(failure
      ? {
          last_error: {
            attempt_id: failure.attempt_id,
            attempted_at: failure.attempted_at.toISOString(),
            outcome: failure.outcome,
            ...(failure.status_code !== null ? { status_code: failure.status_code } : {}),
            ...(failure.error !== null ? { error: failure.error } : {}),
          },
        }
      : {}),
    series,
  };
}
