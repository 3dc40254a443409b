import { localInputValue, parseLocalTime, timeInWords, zoneOf } from './zone';

describe('times in a named zone', () => {
  it('reads a datetime-local value in the zone given, summer and winter', () => {
    expect(parseLocalTime('2026-11-25T20:52:03', 'Europe/Paris')?.toISOString()).toBe(
      '2026-11-25T19:52:03.000Z',
    );
    expect(parseLocalTime('2026-07-01T08:00', 'Europe/Paris')?.toISOString()).toBe(
      '2026-07-01T06:00:00.000Z',
    );
    expect(parseLocalTime('2026-11-25T08:00:00', 'America/New_York')?.toISOString()).toBe(
      '2026-11-25T13:00:00.000Z',
    );
    expect(parseLocalTime('2026-11-25T20:52:03', 'UTC')?.toISOString()).toBe('2026-11-25T20:52:03.000Z');
    expect(parseLocalTime('2026-11-25 20:52', 'UTC')).toBeUndefined();
    expect(parseLocalTime('yesterday', 'UTC')).toBeUndefined();
  });

  it('refuses a date or time the calendar and clock do not have, where Date.UTC would roll it over', () => {
    for (const value of ['2026-02-30T00:00', '2026-11-31T10:00:00', '2026-02-29T00:00', '2026-11-25T24:00'])
      expect(parseLocalTime(value, 'Europe/Paris')).toBeUndefined();
    expect(parseLocalTime('2024-02-29T00:00', 'UTC')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it('reads a time the clock skips as moved forward by the jump, and one it shows twice as the earlier', () => {
    const read = (value: string, zone: string) => parseLocalTime(value, zone)?.toISOString();
    // Paris goes from 02:00 to 03:00 on 29 March 2026 (01:00 UTC): 02:30 is read as 03:30 summer time.
    expect(read('2026-03-29T02:30', 'Europe/Paris')).toBe('2026-03-29T01:30:00.000Z');
    expect(read('2026-03-29T02:00:00', 'Europe/Paris')).toBe('2026-03-29T01:00:00.000Z');
    expect(read('2026-03-29T01:59:59', 'Europe/Paris')).toBe('2026-03-29T00:59:59.000Z');
    expect(read('2026-03-29T03:00', 'Europe/Paris')).toBe('2026-03-29T01:00:00.000Z');
    // Back from 03:00 to 02:00 on 25 October 2026: 02:30 happens twice, first in summer time.
    expect(read('2026-10-25T02:30', 'Europe/Paris')).toBe('2026-10-25T00:30:00.000Z');
    expect(read('2026-10-25T01:59:59', 'Europe/Paris')).toBe('2026-10-24T23:59:59.000Z');
    expect(read('2026-10-25T03:00', 'Europe/Paris')).toBe('2026-10-25T02:00:00.000Z');
    // Behind UTC, and a zone whose clock moves by half an hour.
    expect(read('2026-03-08T02:15', 'America/New_York')).toBe('2026-03-08T07:15:00.000Z');
    expect(read('2026-11-01T01:15', 'America/New_York')).toBe('2026-11-01T05:15:00.000Z');
    expect(read('2026-10-04T02:10', 'Australia/Lord_Howe')).toBe('2026-10-03T15:40:00.000Z');
    expect(read('2026-04-05T01:45', 'Australia/Lord_Howe')).toBe('2026-04-04T14:45:00.000Z');
    // And written back: the skipped time as the time it was read as, the repeated one as typed.
    expect(localInputValue(parseLocalTime('2026-03-29T02:30', 'Europe/Paris')!, 'Europe/Paris')).toBe(
      '2026-03-29T03:30:00',
    );
    expect(localInputValue(parseLocalTime('2026-10-25T02:30', 'Europe/Paris')!, 'Europe/Paris')).toBe(
      '2026-10-25T02:30:00',
    );
  });

  it('writes an instant back as the same wall-clock value, and in words naming the zone', () => {
    const at = new Date('2026-11-25T19:52:03.456Z');
    expect(localInputValue(at, 'Europe/Paris')).toBe('2026-11-25T20:52:03');
    expect(localInputValue(at, 'Asia/Kolkata')).toBe('2026-11-26T01:22:03');
    expect(timeInWords(at, 'Europe/Paris')).toBe('25 Nov 2026, 20:52:03 (Europe/Paris)');
  });

  it('knows zone names and refuses anything else', () => {
    expect(zoneOf('Europe/Paris')).toBe('Europe/Paris');
    expect(zoneOf('Mars/Olympus')).toBeUndefined();
    expect(zoneOf('<script>')).toBeUndefined();
    expect(zoneOf(undefined)).toBeUndefined();
  });
});
