import { parseOptions, USAGE } from './options';

describe('the idle-fleet options', () => {
  it('runs the idle phase alone with the hooks asked for, 60 s (10 s quick)', () => {
    const options = parseOptions(['--only=idle', '--idle-hooks=1000000'], {});
    expect(options).toMatchObject({ only: 'idle', idleFleetHooks: 1_000_000, idleFleetMs: 60_000 });
    expect(parseOptions(['--only=idle', '--quick'], {})).toMatchObject({
      idleFleetHooks: 100_000,
      idleFleetMs: 10_000,
    });
  });

  it('answers with the usage for another phase or a count that is not a whole number', () => {
    expect(parseOptions(['--only=busy'], {})).toBe(USAGE);
    expect(parseOptions(['--idle-hooks=lots'], {})).toBe(USAGE);
    expect(parseOptions(['--idle-hooks=-1'], {})).toBe(USAGE);
  });
});

describe('the replica acknowledgements option', () => {
  it('runs the acks phase alone', () => {
    expect(parseOptions(['--', '--only=acks', '--quick'], {})).toMatchObject({ only: 'acks', quick: true });
  });
});
