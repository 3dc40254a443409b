import fc from 'fast-check';
import { eventTimestampProblem, formatEventTimestamp, isCalendarDate, isEventTimestamp } from './timestamp';

describe('isEventTimestamp', () => {
  it.each([
    '2016-03-01T08:31:55.0000000',
    '2016-02-29T23:59:59.9999999',
    '2000-02-29T00:00:00.0000000',
    '0001-01-01T00:00:00.0000000',
    '9999-12-31T23:59:59.9999999',
  ])('accepts %s', (text) => expect(isEventTimestamp(text)).toBe(true));

  it.each([
    ['six fractional digits', '2016-03-01T08:31:55.000000'],
    ['eight fractional digits', '2016-03-01T08:31:55.00000000'],
    ['no fraction', '2016-03-01T08:31:55'],
    ['a zone designator', '2016-03-01T08:31:55.0000000Z'],
    ['an offset', '2016-03-01T08:31:55.0000000+01:00'],
    ['a space for T', '2016-03-01 08:31:55.0000000'],
    ['month 13', '2016-13-01T08:31:55.0000000'],
    ['month 0', '2016-00-01T08:31:55.0000000'],
    ['day 0', '2016-03-00T08:31:55.0000000'],
    ['31 April', '2016-04-31T08:31:55.0000000'],
    ['29 February of a common year', '2015-02-29T08:31:55.0000000'],
    ['29 February 1900 (not a leap year)', '1900-02-29T08:31:55.0000000'],
    ['hour 24', '2016-03-01T24:00:00.0000000'],
    ['minute 60', '2016-03-01T08:60:55.0000000'],
    ['a leap second', '2016-12-31T23:59:60.0000000'],
    ['non-ASCII digits', '２016-03-01T08:31:55.0000000'],
    ['surrounding space', ' 2016-03-01T08:31:55.0000000'],
    ['a trailing newline', '2016-03-01T08:31:55.0000000\n'],
    ['an empty string', ''],
  ])('rejects %s', (_what, text) => expect(isEventTimestamp(text)).toBe(false));
});

describe('eventTimestampProblem', () => {
  it('tells a day or a time that does not exist from a wrong shape', () => {
    expect(eventTimestampProblem('2026-02-30T00:00:00.0000000')).toBe(
      'names a day the calendar does not have (2026-02-30)',
    );
    expect(eventTimestampProblem('2016-03-01T24:00:00.0000000')).toBe(
      'names a time of day that does not exist (24:00:00)',
    );
    expect(eventTimestampProblem('2016-03-01T08:31:55Z')).toMatch(/^must be a timestamp shaped YYYY-MM-DD/);
    expect(eventTimestampProblem('2016-03-01T08:31:55.0000000')).toBeUndefined();
  });
});

describe('formatEventTimestamp', () => {
  it('writes UTC with the milliseconds padded to seven digits', () => {
    expect(formatEventTimestamp(new Date('2016-03-01T08:31:55.123Z'))).toBe('2016-03-01T08:31:55.1230000');
    expect(formatEventTimestamp(new Date('2016-03-01T09:31:55.000+01:00'))).toBe(
      '2016-03-01T08:31:55.0000000',
    );
  });

  it('always produces a valid timestamp that reads back as the same instant', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        (at) => {
          const text = formatEventTimestamp(at);
          expect(isEventTimestamp(text)).toBe(true);
          expect(new Date(`${text.slice(0, 23)}Z`).getTime()).toBe(at.getTime());
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('isCalendarDate', () => {
  it.each([
    [2026, 2, 28],
    [2024, 2, 29],
    [2000, 2, 29],
    [2026, 11, 30],
    [2026, 12, 31],
    [4, 2, 29],
  ])('accepts %i-%i-%i', (y, m, d) => expect(isCalendarDate(y, m, d)).toBe(true));

  it.each([
    [2026, 2, 29],
    [2026, 2, 30],
    [1900, 2, 29],
    [2026, 11, 31],
    [2026, 4, 31],
    [2026, 13, 1],
    [2026, 0, 1],
    [2026, 1, 0],
    [2026, 1, 32],
  ])('refuses %i-%i-%i', (y, m, d) => expect(isCalendarDate(y, m, d)).toBe(false));
});
