import fc from 'fast-check';
import { BUILT_IN_CATALOG, CALL_CREATED, EventCatalog } from './event-kinds';
import {
  describeFilter,
  filterableKinds,
  filterProblems,
  matchesFilter,
  type FilterCondition,
  type HookFilter,
} from './hook-filter';
import { SAMPLE_CALL_DATA } from './samples';

const call = { ...SAMPLE_CALL_DATA, direction: 'inbound', to: '+442071234567' };

describe('matchesFilter', () => {
  it.each<[HookFilter, boolean]>([
    [{}, true],
    [{ direction: 'inbound' }, true],
    [{ direction: 'outbound' }, false],
    [{ direction: 'inbound', to: { $prefix: '+4420' } }, true],
    [{ direction: 'inbound', to: { $prefix: '+4421' } }, false],
    [{ from: { $in: ['x', 'jonas1'] } }, true],
    [{ from: { $in: ['x', 'y'] } }, false],
    [{ queue: { $exists: false } }, true],
    [{ queue: { $exists: true } }, false],
    [{ to: { $exists: true } }, true],
    [{ queue: { $prefix: '' } }, false],
    [{ queue: { $in: [''] } }, false],
    [{ queue: '' }, false],
  ])('%j → %s', (filter, expected) => {
    expect(matchesFilter(filter, call)).toBe(expected);
  });

  it('does not read inherited properties as fields', () => {
    expect(matchesFilter({ constructor: { $exists: true } }, {})).toBe(false);
    expect(matchesFilter({ toString: { $exists: false } }, {})).toBe(true);
  });

  const fieldName = fc.constantFrom('a', 'b', 'c');
  const text = fc.string({ maxLength: 4, unit: fc.constantFrom('x', 'y', 'é', '😀') });
  const condition: fc.Arbitrary<FilterCondition> = fc.oneof(
    text,
    fc.record({ $in: fc.array(text, { minLength: 1, maxLength: 3 }) }),
    fc.record({ $prefix: text }),
    fc.record({ $exists: fc.boolean() }),
  );
  const filter = fc.dictionary(fieldName, condition, { maxKeys: 3 });
  const fields = fc.dictionary(fieldName, text, { maxKeys: 3 });

  it('is the conjunction of its conditions, each judged alone', () => {
    fc.assert(
      fc.property(filter, fields, (f, e) => {
        const alone = Object.entries(f).every(([name, c]) => matchesFilter({ [name]: c }, e));
        expect(matchesFilter(f, e)).toBe(alone);
      }),
    );
  });

  it('an exact value is $in of that one value, and a text always starts with itself', () => {
    fc.assert(
      fc.property(fieldName, text, fields, (name, value, e) => {
        expect(matchesFilter({ [name]: value }, e)).toBe(matchesFilter({ [name]: { $in: [value] } }, e));
        expect(matchesFilter({ [name]: { $prefix: value } }, { ...e, [name]: value })).toBe(true);
      }),
    );
  });
});

describe('filterProblems', () => {
  const kinds = BUILT_IN_CATALOG.producerKinds;

  it('accepts every operator on the fields of the kinds', () => {
    expect(
      filterProblems(
        { direction: 'inbound', to: { $prefix: '+44' }, from: { $in: ['a'] }, date: { $exists: true } },
        kinds,
      ),
    ).toEqual([]);
  });

  it('names the field and the operator at fault, every one of them', () => {
    expect(filterProblems({ colour: 'red', to: { $like: 'x' }, from: { $in: 'a' }, rate: 1 }, kinds)).toEqual(
      [
        { field: 'filter.colour', message: expect.stringContaining('is not a field of call_created') },
        { field: 'filter.to.$like', message: expect.stringContaining('is not a filter operator') },
        { field: 'filter.from.$in', message: 'must be a list of 1 to 100 texts' },
        { field: 'filter.rate', message: expect.stringContaining('must be a text') },
      ],
    );
  });

  it('names an empty field name as filter.""', () => {
    expect(filterProblems({ '': 'x', to: 'a' }, kinds)).toEqual([
      {
        field: 'filter.""',
        message: expect.stringMatching(/^a field name must not be empty; the fields are /),
      },
    ]);
  });

  it('refuses control characters and more than 20 fields', () => {
    expect(filterProblems({ to: 'a\u0000' }, kinds)).toEqual([
      { field: 'filter.to', message: 'must not contain control characters' },
    ]);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, 'x']));
    expect(filterProblems(many, kinds)).toEqual([
      { field: 'filter', message: 'must have at most 20 fields' },
    ]);
  });

  it('checks fields against the kinds a hook subscribes to', () => {
    const catalog = EventCatalog.of([
      { name: 'call_ended', origin: 'producer', builtIn: false, fields: [{ name: 'queue', type: 'string' }] },
    ]);
    expect(filterableKinds('all', catalog).map((k) => k.name)).toEqual(['call_created', 'call_ended']);
    expect(filterProblems({ queue: 'x' }, filterableKinds('all', catalog))).toEqual([]);
    expect(filterProblems({ queue: 'x' }, filterableKinds([CALL_CREATED.name], catalog))).toEqual([
      { field: 'filter.queue', message: expect.stringContaining('is not a field of call_created;') },
    ]);
  });
});

describe('describeFilter', () => {
  it('says in words which events the hook gets', () => {
    expect(describeFilter(undefined)).toBe('every event of the kinds it subscribes to');
    expect(
      describeFilter({
        direction: 'inbound',
        to: { $prefix: '+4420' },
        from: { $in: ['a', 'b'] },
        queue: { $exists: false },
      }),
    ).toBe(
      'direction is “inbound” and to starts with “+4420” and from is one of “a”, “b” and queue is absent',
    );
  });
});
