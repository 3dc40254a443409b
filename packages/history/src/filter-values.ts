import { freeTextProblem, isCalendarDate } from '@hookline/core';

// What a history filter may be given, one rule for the API and the website (both read their query strings with
// these). Every value becomes a parameter of a PostgreSQL query, and PostgreSQL text cannot hold NUL: such a
// value would fail the read as a server error, where the mistake is the caller's. No record holds text that
// core's free-text rule refuses (events are refused with it at the door), so refusing it hides no record.

/** The longest value of each text filter. */
export const FILTER_TEXT_MAX = { call_id: 256, event_id: 64 } as const;

export type FilterTextField = keyof typeof FILTER_TEXT_MAX;

/** What is wrong with a call id or event id to filter by ("must …"), or undefined when it can be looked up. */
export function filterTextProblem(field: FilterTextField, value: string): string | undefined {
  const max = FILTER_TEXT_MAX[field];
  if (value.length === 0) return 'must not be empty';
  if (value.length > max) return `must be at most ${max} characters`;
  return freeTextProblem(value);
}

// A date, optionally a time to the minute or second (with a fraction), optionally a zone: what Date.parse reads
// as ISO 8601. Its date is checked against the calendar here, because Date.parse rolls 30 February over into
// March instead of refusing it.
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export type FilterTime = { readonly at: Date } | { readonly problem: 'shape' | 'no_such_date' | 'no_zone' };

/** An ISO 8601 time given as `since` or `until`: the instant, or why it is not one. */
export function parseFilterTime(text: string): FilterTime {
  const m = ISO_TIME.exec(text);
  if (!m) return { problem: 'shape' };
  if (!isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) return { problem: 'no_such_date' };
  // 24:00 is read by Date.parse as the next day's midnight: a time of day the clock shows is asked for.
  if (Number(m[4] ?? 0) > 23 || Number(m[5] ?? 0) > 59 || Number(m[6] ?? 0) > 59) return { problem: 'shape' };
  // A time of day without a zone would be read in the zone of whichever server answers (Date.parse): one query,
  // two answers. A date alone is a UTC day, as Date.parse reads it everywhere.
  if (m[4] !== undefined && m[7] === undefined) return { problem: 'no_zone' };
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? { problem: 'shape' } : { at };
}
