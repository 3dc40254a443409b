import { spawnEntry } from '../src';
import { BUILT_ENTRIES_ENV } from '../src/processes';

// `pnpm test` starts the suites' processes from the build it has just made; a jest run by hand, from source.
describe('spawnEntry', () => {
  const before = process.env[BUILT_ENTRIES_ENV];
  afterEach(() => {
    if (before === undefined) delete process.env[BUILT_ENTRIES_ENV];
    else process.env[BUILT_ENTRIES_ENV] = before;
  });
  const run = async () => {
    const started = spawnEntry('apps/hookline/src/main.ts', {}, ['--', '--version']);
    expect(await started.exited).toEqual({ code: 0, signal: null });
    expect(started.output()).toMatch(/^\d+\.\d+\.\d+\n$/);
    return started.child.spawnargs.slice(1);
  };

  it('runs an entry point from its build under pnpm test, and from source otherwise', async () => {
    process.env[BUILT_ENTRIES_ENV] = '1';
    expect(await run()).toEqual([
      expect.stringMatching(/\/apps\/hookline\/dist\/main\.js$/),
      '--',
      '--version',
    ]);
    delete process.env[BUILT_ENTRIES_ENV];
    expect(await run()).toEqual(['--require', 'tsx/cjs', 'apps/hookline/src/main.ts', '--', '--version']);
  }, 30000);

  it('says to build when the entry point has no build, rather than running stale or nothing', () => {
    process.env[BUILT_ENTRIES_ENV] = '1';
    expect(() => spawnEntry('apps/hookline/src/no-such-main.ts', {})).toThrow(
      /^apps\/hookline\/src\/no-such-main\.ts has no build at \/.*\/apps\/hookline\/dist\/no-such-main\.js: run pnpm build$/,
    );
  });
});
