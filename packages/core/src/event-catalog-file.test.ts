import { parseEventCatalog } from './event-catalog-file';

describe('parseEventCatalog', () => {
  it("reads §12's example: call_created stays built in, the file's kinds follow in order", () => {
    const parsed = parseEventCatalog(
      '{"kinds":[{"name":"call_ended","fields":[{"name":"call_id","type":"string"},' +
        '{"name":"duration","type":"decimal"},{"name":"date","type":"timestamp","optional":true}]}]}',
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    expect(parsed.catalog.producerKinds.map((k) => k.name)).toEqual(['call_created', 'call_ended']);
    expect(parsed.catalog.get('call_ended')?.fields).toEqual([
      { name: 'call_id', type: 'string', maxLength: 1024 },
      { name: 'duration', type: 'decimal' },
      { name: 'date', type: 'timestamp', optional: true },
    ]);
    expect(parsed.catalog.get('hook.suspended')?.origin).toBe('hookline');
  });

  it('lists every problem of a bad file, each with its place', () => {
    const parsed = parseEventCatalog(
      JSON.stringify({
        kinds: [
          {
            name: 'call_ended',
            fields: [
              { name: 'duration', type: 'number' },
              { name: 'duration', type: 'decimal' },
            ],
          },
          { name: 'call_created', fields: [] },
          {
            name: 'Bad Name',
            fields: [
              { name: 'EventType', type: 'string' },
              { name: '__proto__', type: 'string' },
            ],
          },
          { name: 'call_ended', fields: [{ name: 'x', type: 'string', optional: 'yes', extra: 1 }] },
          { fields: 'none' },
        ],
        version: 2,
      }),
    );
    expect(parsed.ok).toBe(false);
    const problems = parsed.ok ? [] : parsed.problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'kinds[0] (call_ended).fields[0].type: must be one of string, decimal, timestamp',
        'kinds[0] (call_ended).fields[1].name: repeats an earlier field of this kind',
        'kinds[1] (call_created).name: is a built-in kind and cannot be redefined',
        expect.stringMatching(/^kinds\[2\] \(Bad Name\)\.name: must be lower-case/),
        'kinds[2] (Bad Name).fields[0].name: is reserved (EventType comes first in every body by itself)',
        'kinds[2] (Bad Name).fields[1].name: is reserved (a name every JavaScript object already has)',
        'kinds[3] (call_ended).fields[0].optional: must be true or false',
        'kinds[3] (call_ended).fields[0].extra: is not a known field',
        'kinds[4].name: is required',
        'kinds[4].fields: must be a list of fields',
        'version: is not a known field',
      ]),
    );
  });

  it('reads personal marks on string fields and refuses one on any other field, naming it', () => {
    const kind = (fields: object[]) => JSON.stringify({ kinds: [{ name: 'callback_requested', fields }] });
    const good = parseEventCatalog(
      kind([
        { name: 'callback', type: 'string', personal: true },
        { name: 'note', type: 'string', personal: false },
      ]),
    );
    if (!good.ok) throw new Error(good.problems.join('\n'));
    expect(good.catalog.get('callback_requested')?.fields).toEqual([
      { name: 'callback', type: 'string', maxLength: 1024, personal: true },
      { name: 'note', type: 'string', maxLength: 1024 },
    ]);
    const bad = parseEventCatalog(
      kind([
        { name: 'callback', type: 'string', personal: 'yes' },
        { name: 'duration', type: 'decimal', personal: true },
        { name: 'at', type: 'timestamp', personal: true },
      ]),
    );
    expect(bad.ok ? [] : bad.problems).toEqual([
      'kinds[0] (callback_requested).fields[0].personal: must be true or false',
      'kinds[0] (callback_requested).fields[1].personal: only a string field can be personal (this one is decimal)',
      'kinds[0] (callback_requested).fields[2].personal: only a string field can be personal (this one is timestamp)',
    ]);
  });

  it('names a repeated kind', () => {
    const kind = { name: 'call_ended', fields: [] };
    const parsed = parseEventCatalog(JSON.stringify({ kinds: [kind, kind] }));
    expect(parsed.ok ? [] : parsed.problems).toEqual(['kinds[1] (call_ended).name: repeats an earlier kind']);
  });

  it('says when the file is not JSON or has no kinds', () => {
    const notJson = parseEventCatalog('{"kinds": [');
    expect(notJson.ok ? [] : notJson.problems[0]).toMatch(/^not valid JSON: /);
    const empty = parseEventCatalog('{}');
    expect(empty.ok ? [] : empty.problems).toEqual(['kinds: is required']);
  });
});
