import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnEntry } from '@hookline/testing';

// The production entry points answer --help and --version and refuse any other argument, before starting
// anything: no settings are read, no Redis is reached.
describe.each(['http-main', 'worker-main', 'monitor-main'])('node apps/hookline/dist/%s.js', (entry) => {
  // A REDIS_URL that cannot answer and no keys: were anything started, the process would not exit 0 or 2.
  const env = { REDIS_URL: 'redis://127.0.0.1:1' };
  const source = `apps/hookline/src/${entry}.ts`;
  const version = (
    JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
  ).version;

  it('prints its usage for --help and exits 0', async () => {
    const hookline = spawnEntry(source, env, ['--help']);
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
    expect(hookline.output()).toMatch(
      new RegExp(`^Usage: node apps/hookline/dist/${entry}\\.js \\[--help \\| --version\\]\n\nRuns `),
    );
    expect(hookline.output()).toContain('Every setting comes from environment variables');
    expect(hookline.output()).toContain('in the README');
  }, 30000);

  it("prints the package's version for --version and exits 0", async () => {
    const hookline = spawnEntry(source, env, ['--version']);
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
    expect(hookline.output()).toBe(`${version}\n`);
  }, 30000);

  it('refuses any other argument, a flag of main.js too, with the usage, exit 2', async () => {
    const hookline = spawnEntry(source, env, ['--demo']);
    expect(await hookline.exited).toEqual({ code: 2, signal: null });
    expect(hookline.output()).toMatch(
      new RegExp(`^Unknown argument: --demo\n\nUsage: node apps/hookline/dist/${entry}\\.js`),
    );
  }, 30000);
});
