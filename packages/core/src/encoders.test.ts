import fc from 'fast-check';
import { isDecimalText } from './decimal';
import { encodeEvent, encodeForm, encodeJson } from './encoders';
import { CALL_CREATED, layoutOf, type DeliverableEvent } from './event-kinds';

const FIELDS = layoutOf(CALL_CREATED).map(([name, type]) => ({ name, type }));
// Every field but the decimal is a JSON string on the wire (the timestamp included), whatever its text.
const STRING_FIELDS = FIELDS.filter((f) => f.type !== 'decimal').map((f) => f.name);

// Characters that break naive encoders, mixed with any Unicode code point (astral ones included).
const tricky = fc.constantFrom(
  '"',
  '\\',
  '&',
  '=',
  '+',
  '%',
  '%20',
  '#',
  '?',
  ' ',
  '\n',
  '\r\n',
  '\t',
  '\u0000',
);
const exotic = fc.constantFrom('\u2028', '\u2029', '\u00a0', '\ufeff', '😀', '👩‍👩‍👧', 'é', 'e\u0301', '中文');
const anyText = fc.string({
  unit: fc.oneof(tricky, exotic, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })),
  maxLength: 40,
});

// Decimal text as producers write it: optional sign, no leading zeros, any fraction (trailing zeros kept).
const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const decimalText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(
      fc.constant('0'),
      fc.tuple(fc.constantFrom(...'123456789'), digits(0, 20)).map(([a, b]) => a + b),
    ),
    fc.option(digits(1, 20), { nil: undefined }),
  )
  .map(([negative, int, frac]) => `${negative ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`);

const eventOf = (strings: Readonly<Record<string, string>>, rate: string): DeliverableEvent => ({
  id: 'evt_1',
  type: 'call_created',
  fields: Object.fromEntries(FIELDS.map(({ name }) => [name, name === 'rate' ? rate : strings[name]!])),
});
const stringsArb: fc.Arbitrary<Record<string, string>> = fc.record(
  Object.fromEntries(STRING_FIELDS.map((name) => [name, anyText])),
);

describe('encodeJson', () => {
  it('round-trips every string field exactly, in wire order, with rate as the number it spells', () => {
    fc.assert(
      fc.property(stringsArb, decimalText, (strings, rate) => {
        const parsed = JSON.parse(encodeJson(eventOf(strings, rate))) as Record<string, unknown>;
        expect(Object.keys(parsed)).toEqual(FIELDS.map((f) => f.name));
        for (const name of STRING_FIELDS) expect(parsed[name]).toBe(strings[name]);
        expect(parsed['rate']).toBe(Number(rate));
      }),
      { numRuns: 500 },
    );
  });

  it('writes the decimal text of rate verbatim as the value token', () => {
    fc.assert(
      fc.property(stringsArb, decimalText, (strings, rate) => {
        expect(isDecimalText(rate)).toBe(true);
        const body = encodeJson(eventOf(strings, rate));
        const dateToken = `,${JSON.stringify('date')}:`;
        expect(body).toContain(`"rate":${rate}${dateToken}`);
      }),
      { numRuns: 500 },
    );
  });

  it('emits no raw control characters, so the body is one line', () => {
    fc.assert(
      fc.property(stringsArb, (strings) => {
        expect(encodeJson(eventOf(strings, '1'))).not.toMatch(/[\u0000-\u001f]/);
      }),
    );
  });
});

describe('encodeForm', () => {
  it('round-trips every field exactly and in order through URLSearchParams', () => {
    fc.assert(
      fc.property(stringsArb, decimalText, (strings, rate) => {
        const event = eventOf(strings, rate);
        const pairs = [...new URLSearchParams(encodeForm(event))];
        expect(pairs).toEqual(FIELDS.map(({ name }) => [name, event.fields[name]]));
      }),
      { numRuns: 500 },
    );
  });

  it('writes the decimal text of rate verbatim', () => {
    fc.assert(
      fc.property(stringsArb, decimalText, (strings, rate) => {
        expect(encodeForm(eventOf(strings, rate))).toContain(`&rate=${rate}&date=`);
      }),
      { numRuns: 500 },
    );
  });

  it('produces only unreserved ASCII, so the body bytes are the string itself', () => {
    fc.assert(
      fc.property(stringsArb, (strings) => {
        expect(encodeForm(eventOf(strings, '0.0'))).toMatch(/^[A-Za-z0-9*\-._%+=&]*$/);
      }),
    );
  });
});

// Lone surrogates are not Unicode text. The producer schema accepts them today (z.string()); what each
// format then does is pinned here so a change is deliberate: JSON escapes them (\udXXX, ASCII on the
// wire, JSON.parse gives the same lone surrogate back, though many receivers' parsers reject it), while
// the form encoder, like every UTF-8 encoder, replaces each with U+FFFD. Rejecting them at the producer
// (String.prototype.isWellFormed) would make both formats lossless.
describe('lone surrogates', () => {
  const strings = Object.fromEntries(STRING_FIELDS.map((n) => [n, 'x'])) as Record<string, string>;
  const event = eventOf({ ...strings, from_cnam: 'a\ud800b\udc00' }, '0.0');

  it('survive JSON as escapes', () => {
    const body = encodeJson(event);
    expect(body).toContain('"from_cnam":"a\\ud800b\\udc00"');
    expect((JSON.parse(body) as Record<string, string>)['from_cnam']).toBe('a\ud800b\udc00');
  });

  it('become U+FFFD in a form', () => {
    expect(new URLSearchParams(encodeForm(event)).get('from_cnam')).toBe('a\ufffdb\ufffd');
  });
});

describe('encodeEvent', () => {
  it('pairs each format with its exact Content-Type', () => {
    const event = eventOf(Object.fromEntries(STRING_FIELDS.map((n) => [n, 'x'])), '0.0');
    expect(encodeEvent(event, 'json').contentType).toBe('application/json; charset=utf-8');
    expect(encodeEvent(event, 'form').contentType).toBe('application/x-www-form-urlencoded');
  });
});
