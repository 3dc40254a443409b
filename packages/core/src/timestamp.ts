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
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day >= 1 && day <= daysInMonth;
}

/** The current UTC time in the seed's shape; milliseconds padded to seven digits. */
export function formatEventTimestamp(at: Date): string {
  return at.toISOString().slice(0, 23) + '0000';
}
