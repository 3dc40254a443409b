import { isCalendarDate } from '@hookline/core';
import { html, type SafeHtml } from './html';

// One time zone per page (product §15): the browser's, which the script reads and puts into every time shown,
// every zone name and every form's `tz` field; without the script, UTC everywhere. A time typed into a form is
// read in the zone that form carries, so what the page showed is what the server reads.

export const DEFAULT_ZONE = 'UTC';

/** An IANA zone name this runtime knows (e.g. "Europe/Paris"), or undefined. */
export function zoneOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(value)) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return value;
  } catch {
    return undefined;
  }
}

const partsFormat = (zone: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

/** How far the zone's wall clock is ahead of UTC at `at` (ms). */
function offsetAt(zone: string, at: number): number {
  const parts = partsFormat(zone).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

const DAY_MS = 24 * 3600_000;

/**
 * A `datetime-local` value read as a wall-clock time in `zone`; undefined if it is not one (30 February
 * included: Date.UTC would roll it over into March). Where the clock is set back, a time it shows twice is the
 * earlier of its two instants; where it jumps forward, a time it skips (02:30 on the night Paris goes from
 * 02:00 to 03:00) is moved forward by the jump (03:30 summer time): Temporal's `compatible` reading, so the
 * time means the instant a clock that was not set forward yet would show it at.
 */
export function parseLocalTime(value: unknown, zone: string): Date | undefined {
  const m = typeof value === 'string' ? LOCAL.exec(value) : null;
  if (!m) return undefined;
  const [y, mo, d, h, mi, s = '0', ms = '0'] = m.slice(1).map((x) => x ?? undefined) as string[];
  if (!isCalendarDate(+y!, +mo!, +d!) || +h! > 23 || +mi! > 59 || +s > 59) return undefined;
  const wall = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s, +ms.padEnd(3, '0'));
  if (Number.isNaN(wall)) return undefined;
  // The zone's offsets a day either side: a change of clocks near this time is between them. Each is the time's
  // instant if the zone really is at that offset then; none is (a skipped time), or both are (a repeated one).
  const before = offsetAt(zone, wall - DAY_MS);
  const after = offsetAt(zone, wall + DAY_MS);
  const instants = [wall - before, wall - after].filter((at) => offsetAt(zone, at) === wall - at);
  return new Date(instants.length > 0 ? Math.min(...instants) : wall - before);
}

/** An instant as a `datetime-local` value in `zone`, to the second. */
export function localInputValue(at: Date, zone: string): string {
  const wall = new Date(at.getTime() + offsetAt(zone, at.getTime()));
  return wall.toISOString().slice(0, 19);
}

/** An instant in words, in `zone`, for a sentence the server writes: "25 Nov 2026, 20:52:03 (Europe/Paris)". */
export function timeInWords(at: Date, zone: string): string {
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    dateStyle: 'medium',
    timeStyle: 'medium',
  }).format(at);
  return `${text} (${zone})`;
}

/** The page's zone by name; the script puts the browser's in. */
export const zoneName = (): SafeHtml => html`<span data-zone-name>${DEFAULT_ZONE}</span>`;

/** Every form with a time in it says which zone it was typed in. */
export const zoneField = (value = DEFAULT_ZONE): SafeHtml =>
  html`<input type="hidden" name="tz" value="${zoneOf(value) ?? DEFAULT_ZONE}" data-zone-input />`;
