import fc from 'fast-check';
import { encodeForm, encodeJson } from './encoders';
import { parseEventCatalog } from './event-catalog-file';
import { layoutOf, type DeliverableEvent, type EventKind } from './event-kinds';
import { formatEventTimestamp } from './timestamp';

// A catalogue kind with every field type, delivered byte for byte as its declaration orders and types it:
// the same rules as call_created (§3), for a kind hookline has no code for.
const parsed = parseEventCatalog(
  JSON.stringify({
    kinds: [
      {
        name: 'call_ended',
        fields: [
          { name: 'call_id', type: 'string' },
          { name: 'duration', type: 'decimal' },
          { name: 'ended_at', type: 'timestamp' },
          { name: 'cost', type: 'decimal', optional: true },
          { name: 'note', type: 'string', optional: true },
          { name: 'date', type: 'timestamp', optional: true },
        ],
      },
    ],
  }),
);
if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
const KIND = parsed.catalog.get('call_ended') as EventKind;

const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', '\\', '&', '=', '+', '%', ' ', ':', '\n', '😀', 'é', '中'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 30,
});
const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const decimal = fc
  .tuple(
    fc.boolean(),
    fc.oneof(
      fc.constant('0'),
      fc.tuple(fc.constantFrom(...'123456789'), digits(0, 12)).map(([a, b]) => a + b),
    ),
    fc.option(digits(1, 12), { nil: undefined }),
  )
  .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`);
const timestamp = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true })
  .chain((d) => digits(4, 4).map((tail) => formatEventTimestamp(d).slice(0, 23) + tail));

const eventArb = fc
  .record({
    call_id: text,
    duration: decimal,
    ended_at: timestamp,
    cost: fc.option(decimal, { nil: undefined }),
    note: fc.option(text, { nil: undefined }),
    date: timestamp,
  })
  .map((values) => {
    const fields: Record<string, string> = { EventType: 'call_ended' };
    for (const [name, value] of Object.entries(values)) if (value !== undefined) fields[name] = value;
    const event: DeliverableEvent = {
      id: 'evt_1',
      type: 'call_ended',
      fields,
      layout: layoutOf(KIND, (f) => fields[f.name] !== undefined),
    };
    return { values, event };
  });

/** The body §3's rules give, written out field by field (a second, independent spelling of the encoder). */
function expectedJson(values: Record<string, string | undefined>): string {
  const parts = ['"EventType":"call_ended"'];
  for (const field of KIND.fields) {
    const value = values[field.name];
    if (value === undefined) continue;
    parts.push(`${JSON.stringify(field.name)}:${field.type === 'decimal' ? value : JSON.stringify(value)}`);
  }
  return `{${parts.join(',')}}`;
}

const formEscape = (value: string) =>
  encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

describe('a catalogue kind with decimal and timestamp fields', () => {
  it('is JSON in declared order, EventType first, decimals as their own number tokens', () => {
    fc.assert(
      fc.property(eventArb, ({ values, event }) => {
        const body = encodeJson(event);
        expect(body).toBe(expectedJson(values));
        const back = JSON.parse(body) as Record<string, unknown>;
        expect(Object.keys(back)).toEqual(Object.keys(event.fields));
        expect(back.duration).toBe(Number(values.duration));
      }),
      { numRuns: 500 },
    );
  });

  it('is a form in declared order, every value percent-encoded, decimals verbatim', () => {
    fc.assert(
      fc.property(eventArb, ({ values, event }) => {
        const body = encodeForm(event);
        const expected = Object.entries(event.fields)
          .map(([name, value]) => `${name}=${formEscape(value)}`)
          .join('&');
        expect(body).toBe(expected);
        expect(body).toContain(`&duration=${values.duration}&ended_at=`);
        expect(body).toMatch(/&ended_at=\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d\.\d{7}/);
      }),
      { numRuns: 500 },
    );
  });

  it('is encoded from the layout the event carries, not from a catalogue of the worker', () => {
    const event: DeliverableEvent = {
      id: 'evt_2',
      type: 'kind_this_process_never_heard_of',
      fields: { EventType: 'kind_this_process_never_heard_of', b: '1.50', a: 'x' },
      layout: [
        ['EventType', 'string'],
        ['b', 'decimal'],
        ['a', 'string'],
      ],
    };
    expect(encodeJson(event)).toBe('{"EventType":"kind_this_process_never_heard_of","b":1.50,"a":"x"}');
    expect(encodeForm(event)).toBe('EventType=kind_this_process_never_heard_of&b=1.50&a=x');
  });

  it('refuses to guess the layout of an unknown kind that carries none', () => {
    const event: DeliverableEvent = { id: 'evt_3', type: 'mystery', fields: { EventType: 'mystery' } };
    expect(() => encodeJson(event)).toThrow(/mystery is unknown and carries no layout/);
  });
});
