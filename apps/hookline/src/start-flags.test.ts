import { parseStartFlags, START_USAGE } from './start-flags';

describe('pnpm start flags', () => {
  it('runs without flags, and with --demo (also after the bare -- that pnpm passes)', () => {
    expect(parseStartFlags([])).toEqual({ kind: 'run', demo: false, embeddedRedis: false });
    expect(parseStartFlags(['--', '--demo'])).toEqual({ kind: 'run', demo: true, embeddedRedis: false });
  });

  it('asks for the embedded Redis with --embedded-redis, alone or beside --demo', () => {
    expect(parseStartFlags(['--', '--embedded-redis'])).toEqual({
      kind: 'run',
      demo: false,
      embeddedRedis: true,
    });
    expect(parseStartFlags(['--embedded-redis', '--demo'])).toEqual({
      kind: 'run',
      demo: true,
      embeddedRedis: true,
    });
    expect(START_USAGE).toMatch(/^ {2}--embedded-redis +start the embedded redis-server/m);
  });

  it('prints usage for --help and -h', () => {
    expect(parseStartFlags(['--', '--help'])).toEqual({ kind: 'help' });
    expect(parseStartFlags(['-h', '--demo'])).toEqual({ kind: 'help' });
  });

  it('prints the version for --version, which the usage lists', () => {
    expect(parseStartFlags(['--', '--version'])).toEqual({ kind: 'version' });
    expect(START_USAGE).toMatch(
      /^Usage: pnpm start \[-- \[--demo\] \[--embedded-redis\] \| --help \| --version\]/,
    );
    expect(START_USAGE).toMatch(/^ {2}--version +print the version of hookline and exit$/m);
  });

  it('refuses anything else, naming it', () => {
    expect(parseStartFlags(['--demo', '--port=1', 'x'])).toEqual({
      kind: 'invalid',
      problem: 'Unknown arguments: --port=1 x',
    });
    // Also beside --version or --help: the command line was mistyped, and says so.
    expect(parseStartFlags(['--version', '--bogus'])).toEqual({
      kind: 'invalid',
      problem: 'Unknown argument: --bogus',
    });
    expect(parseStartFlags(['--help', '--bogus'])).toEqual({
      kind: 'invalid',
      problem: 'Unknown argument: --bogus',
    });
  });
});
