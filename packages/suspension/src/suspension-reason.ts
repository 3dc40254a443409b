import { failureInWords, type DeliveryRecord } from '@hookline/core';

// The reason is read by customers (API `suspended_reason`, the website's banner, the activity feed), so it is
// a sentence: no timestamps, error codes or addresses. When it happened is the hook's `suspended_at`, and each
// failure's time, status and recorded error are in the failures kept with the suspension.

/** e.g. "10 consecutive failures over 12 minutes; the last: the endpoint answered 500". */
export function streakReason(
  count: number,
  startedAt: number,
  at: number,
  last: DeliveryRecord | undefined,
): string {
  const failures = count === 1 ? '1 failure' : `${count} consecutive failures`;
  const head = `${failures} ${span(at - startedAt)}`;
  return last ? `${head}; the last: ${failureInWords(last)}` : head;
}

/** How long the streak lasted, rounded down: it lasted at least that long. */
function span(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  if (seconds < 1) return 'within a second';
  if (seconds < 120) return `over ${count(seconds, 'second')}`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `over ${count(minutes, 'minute')}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `over ${count(hours, 'hour')}`;
  return `over ${count(Math.floor(hours / 24), 'day')}`;
}

const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
