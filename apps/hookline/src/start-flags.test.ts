import { parseStartFlags } from './start-flags';

describe('pnpm start flags', () => {
  it('runs without flags, and with --demo (also after the bare -- that pnpm passes)', () => {
    expect(parseStartFlags([])).toEqual({ kind: 'run', demo: false });
    expect(parseStartFlags(['--', '--demo'])).toEqual({ kind: 'run', demo: true });
  });

  it('prints usage for --help and -h', () => {
    expect(parseStartFlags(['--', '--help'])).toEqual({ kind: 'help' });
    expect(parseStartFlags(['-h', '--demo'])).toEqual({ kind: 'help' });
  });

  it('refuses anything else, naming it', () => {
    expect(parseStartFlags(['--demo', '--port=1', 'x'])).toEqual({
      kind: 'invalid',
      problem: 'Unknown arguments: --port=1 x',
    });
  });
});
