import fc from 'fast-check';
import { parseEventCatalog } from './event-catalog-file';
import {
  acceptPublishEventInput,
  publishAcceptor,
  publishEventInput,
  publishEventSchema,
} from './publish-input';

// The publish route checks bodies with acceptPublishEventInput first and leaves everything it does not accept
// to the schema, so the two must agree exactly: same answer, same value, same key order.

/** The number objects lossless-json hands over, with their source text. */
class LosslessNumber {
  readonly isLosslessNumber = true as const;
  constructor(readonly value: string) {}
}

/** Mostly valid values, so that many generated bodies are accepted, and now and then an invalid one. */
const mostly = <T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<unknown>) =>
  fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: invalid, weight: 1 });

const anyValue = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);
const text = mostly(
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 8 }),
    fc.constantFrom('Jonas 1', 'x'.repeat(64), 'é', 'pair\ud83d\ude00'),
  ),
  fc.oneof(
    fc.constantFrom(
      '',
      'x'.repeat(65),
      'x'.repeat(256),
      'x'.repeat(257),
      'nul\u0000',
      'tab\t',
      'c1\u0085',
      'lone\ud800',
    ),
    anyValue,
  ),
);
const rate = mostly(
  fc.oneof(
    fc.constantFrom('0.0', '0.0100', '-1.5', '12'),
    fc.constantFrom('0.0', '12.50', '-3').map((v) => new LosslessNumber(v)),
    fc.integer(),
  ),
  fc.oneof(
    fc.constantFrom('1e5', '01', 'abc', '', '1.'),
    fc.constantFrom('1e3', '-0', 'NaN', '1.').map((v) => new LosslessNumber(v)),
    fc.double(),
    anyValue,
  ),
);
const date = mostly(
  fc.constant('2016-03-01T08:31:55.0000000'),
  fc.oneof(fc.constantFrom('2016-02-30T08:31:55.0000000', '2016-03-01T08:31:55.000'), anyValue),
);
const idKey = mostly(
  fc.oneof(fc.constantFrom('evt-1', 'a'.repeat(200)), fc.stringMatching(/^[!-~]{1,12}$/)),
  fc.oneof(fc.constantFrom('a'.repeat(201), '', 'has space', 'ü'), anyValue),
);

/** A record with each field present or absent (now and then an unknown one), built in a random key order. */
function record(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const absentNowAndThen = <T>(value: fc.Arbitrary<T>) =>
    fc.oneof({ arbitrary: value, weight: 15 }, { arbitrary: fc.constant(null), weight: 1 });
  const present = Object.entries(fields).map(([key, value]) =>
    absentNowAndThen(value.map((v) => [key, v] as const)),
  );
  const extra = fc.oneof(
    { arbitrary: fc.constant(null), weight: 15 },
    {
      arbitrary: fc.constantFrom('extra', '__proto__', 'constructor').map((k) => [k, 'x'] as const),
      weight: 1,
    },
  );
  return fc.tuple(fc.tuple(...present, extra), fc.infiniteStream(fc.nat())).map(([entries, order]) => {
    const kept = entries.filter((e): e is readonly [string, unknown] => e !== null);
    const ranks = new Map(kept.map((e) => [e, order.next().value as number]));
    kept.sort((a, b) => ranks.get(a)! - ranks.get(b)!);
    const out: Record<string, unknown> = {};
    for (const [key, value] of kept)
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    return out;
  });
}

const data = record({ call_id: text, direction: text, from: text, from_cnam: text, to: text, rate, date });
const body = mostly(
  record({ type: mostly(fc.constant('call_created'), anyValue), id: idKey, data: mostly(data, anyValue) }),
  anyValue,
);

describe('acceptPublishEventInput', () => {
  it('accepts exactly what the schema accepts, with the same value in the same key order', () => {
    fc.assert(
      fc.property(body, (input) => {
        const fast = acceptPublishEventInput(input);
        const parsed = publishEventInput.safeParse(input);
        expect(fast !== undefined).toBe(parsed.success);
        if (fast !== undefined) expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
      }),
      { numRuns: 20_000 },
    );
    // Not vacuous: a good share of the bodies is accepted.
    const accepted = fc.sample(body, 2000).filter((b) => acceptPublishEventInput(b) !== undefined);
    expect(accepted.length).toBeGreaterThan(400);
  });

  it('refuses a rate longer than it can be kept, saying how long it may be', () => {
    const input = {
      type: 'call_created',
      data: { call_id: 'c', direction: 'd', from: '', from_cnam: '', to: '', rate: `1${'0'.repeat(31)}.0` },
    };
    expect(acceptPublishEventInput(input)).toBeUndefined();
    const parsed = publishEventInput.safeParse(input);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [
        'data.rate',
        'must be a decimal number such as 0.0 or 0.0100, in plain digits (no exponent such as 1e2; at most 31 ' +
          'digits before the point and 30 after)',
      ],
    ]);
  });

  it('refuses 30 February as a day that does not exist, not as a wrong shape', () => {
    const input = {
      type: 'call_created',
      data: {
        call_id: 'c',
        direction: 'd',
        from: '',
        from_cnam: '',
        to: '',
        rate: '0.0',
        date: '2026-02-30T00:00:00.0000000',
      },
    };
    expect(acceptPublishEventInput(input)).toBeUndefined();
    const parsed = publishEventInput.safeParse(input);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['data.date', 'names a day the calendar does not have (2026-02-30)'],
    ]);
  });

  it('accepts the product example, keeping the rate as written', () => {
    const input = {
      type: 'call_created',
      id: 'evt-42',
      data: {
        call_id: '9309b4a2-d59f',
        direction: 'outbound',
        from: 'jonas1',
        from_cnam: 'Jonas 1',
        to: '78791245',
        rate: new LosslessNumber('0.0'),
        date: '2016-03-01T08:31:55.0000000',
      },
    };
    expect(acceptPublishEventInput(input)).toEqual({ ...input, data: { ...input.data, rate: '0.0' } });
  });

  it('leaves a body whose prototype was replaced to the schema', () => {
    const lent = Object.create({ type: 'call_created' }) as Record<string, unknown>;
    lent.data = { call_id: 'c', direction: 'd', from: '', from_cnam: '', to: '', rate: '0.0' };
    expect(acceptPublishEventInput(lent)).toBeUndefined();
  });
});

describe('a catalogue kind', () => {
  const parsed = parseEventCatalog(
    JSON.stringify({
      kinds: [
        {
          name: 'call_ended',
          fields: [
            { name: 'call_id', type: 'string' },
            { name: 'duration', type: 'decimal' },
            { name: 'note', type: 'string', optional: true },
            { name: 'date', type: 'timestamp', optional: true },
          ],
        },
      ],
    }),
  );
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  const schema = publishEventSchema(parsed.catalog);
  const accept = publishAcceptor(parsed.catalog);
  const ended = record({ call_id: text, duration: rate, note: text, date });
  const anyKind = mostly(
    fc.oneof(
      record({ type: fc.constant('call_ended'), id: idKey, data: mostly(ended, anyValue) }),
      record({ type: fc.constant('call_created'), id: idKey, data: mostly(data, anyValue) }),
    ),
    record({ type: fc.constantFrom('hook.suspended', 'call_ended '), data: ended }),
  );

  it('is accepted by the fast path exactly when the schema accepts it, with the same value', () => {
    fc.assert(
      fc.property(anyKind, (input) => {
        const fast = accept(input);
        const checked = schema.safeParse(input);
        expect(fast !== undefined).toBe(checked.success);
        if (fast !== undefined) expect(JSON.stringify(fast)).toBe(JSON.stringify(checked.data));
      }),
      { numRuns: 10_000 },
    );
    const accepted = fc
      .sample(anyKind, 2000)
      .filter((b) => (accept(b) as { type?: string })?.type === 'call_ended');
    expect(accepted.length).toBeGreaterThan(200);
  });

  it('names the type when it is not a kind producers may publish, and why for a notice of hookline', () => {
    for (const [type, why] of [
      ['call_ende', ''],
      ['hook.suspended', '"hook.suspended" is a notice hookline sends itself and cannot be published; '],
    ]) {
      const result = schema.safeParse({ type, data: {} });
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({
          path: ['type'],
          message: `${why}type must be one of "call_created", "call_ended"`,
        }),
      ]);
    }
  });

  it('says a missing type is required, as any missing field is', () => {
    const result = schema.safeParse({ data: { call_id: 'x' } }, { reportInput: true });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['type'], message: 'is required' }),
    ]);
  });
});
