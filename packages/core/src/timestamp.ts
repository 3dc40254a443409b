// The seed's date shape: YYYY-MM-DDThh:mm:ss.fffffff, seven fractional digits, no zone designator.
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{7}$/;

export function isEventTimestamp(text: string): boolean {
  const m = SHAPE.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return isCalendarDate(year, month, day) && hour <= 23 && minute <= 59 && second <= 59;
}

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
