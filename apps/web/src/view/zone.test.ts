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
