import { filterTextProblem, parseFilterTime } from './filter-values';

describe('filterTextProblem', () => {
  it('takes a call id or event id as given', () => {
    expect(filterTextProblem('call_id', '9309b4a2-d59f')).toBeUndefined();
    expect(filterTextProblem('call_id', 'x'.repeat(256))).toBeUndefined();
    expect(filterTextProblem('event_id', 'évt 42 ✓')).toBeUndefined();
  });

  it.each([
    ['call_id', '', 'must not be empty'],
    ['call_id', 'x'.repeat(257), 'must be at most 256 characters'],
    ['event_id', 'x'.repeat(65), 'must be at most 64 characters'],
    ['call_id', '\u0000', 'must not contain control characters'],
    ['event_id', 'a\u0000b', 'must not contain control characters'],
    ['call_id', 'a\nb', 'must not contain control characters'],
    ['call_id', '\ud800', 'must be well-formed Unicode (no lone surrogates)'],
  ] as const)('refuses %s %j', (field, value, problem) => {
    expect(filterTextProblem(field, value)).toBe(problem);
  });
});

describe('parseFilterTime', () => {
  it.each([
    ['2026-11-24T09:00:00Z', '2026-11-24T09:00:00.000Z'],
    ['2026-11-24T10:00:00+01:00', '2026-11-24T09:00:00.000Z'],
    ['2026-11-24T09:00Z', '2026-11-24T09:00:00.000Z'],
    ['2026-11-24T09:00:00.250Z', '2026-11-24T09:00:00.250Z'],
    ['2026-11-24', '2026-11-24T00:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseFilterTime(text)).toEqual({ at: new Date(iso) });
  });

  it.each([
    '2026-02-30T00:00:00Z',
    '2026-11-31T00:00:00Z',
    '2026-02-29',
    '2026-04-31T10:00:00+02:00',
    '2026-13-01T00:00:00Z',
  ])('refuses %s, a date the calendar does not have (Date.parse would roll it over)', (text) =>
    expect(parseFilterTime(text)).toEqual({ problem: 'no_such_date' }),
  );

  it.each(['2026-11-24T09:00:00', '2026-11-24T09:00', '2026-11-24T09:00:00.5'])(
    'refuses %s, a time without a zone (each server would read it in its own)',
    (text) => expect(parseFilterTime(text)).toEqual({ problem: 'no_zone' }),
  );

  it.each(['yesterday', '2026-11-24T25:00:00Z', '2026-11-24T09Z', '2026-11-24 09:00', ''])(
    'refuses %j, not an ISO 8601 time',
    (text) => expect(parseFilterTime(text)).toEqual({ problem: 'shape' }),
  );
});
