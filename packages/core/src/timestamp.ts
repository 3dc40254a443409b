// The seed's date shape: YYYY-MM-DDThh:mm:ss.fffffff, seven fractional digits, no zone designator.
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{7}$/;

const SHAPE_RULE = 'must be a timestamp shaped YYYY-MM-DDThh:mm:ss.fffffff (7 digits, no zone)';

/**
 * What is wrong with a timestamp, worded for the publisher; undefined when it is right. A text of the right
 * shape that names no real moment (30 February, 24:00) is told so, not that its shape is wrong.
 */
export function eventTimestampProblem(text: string): string | undefined {
  const m = SHAPE.exec(text);
  if (!m) return SHAPE_RULE;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isCalendarDate(year, month, day))
    return `names a day the calendar does not have (${text.slice(0, 10)})`;
  if (hour > 23 || minute > 59 || second > 59)
    return `names a time of day that does not exist (${text.slice(11, 19)})`;
  return undefined;
}

export const isEventTimestamp = (text: string): boolean => eventTimestampProblem(text) === undefined;

/**
 * Whether year-month-day is a day the calendar has (month 1–12). JavaScript's Date rolls 30 February over
 * into March without a word, so every date read from text is checked with this first.
 */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  date.setUTCFullYear(year, month, 0);
  return day <= date.getUTCDate();
}

/** The current UTC time in the seed's shape; milliseconds padded to seven digits. */
export function formatEventTimestamp(at: Date): string {
  return at.toISOString().slice(0, 23) + '0000';
}
