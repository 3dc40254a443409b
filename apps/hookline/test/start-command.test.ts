import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnEntry } from '@hookline/testing';

// `pnpm start -- --help` / `--version` answer and exit without starting anything: no Redis, no data directory.
describe('pnpm start, asked what it is', () => {
  // A REDIS_URL that cannot answer: were anything started, the process would not exit 0 promptly.
  const env = { REDIS_URL: 'redis://127.0.0.1:1', HOOKLINE_DATA_DIR: '/nonexistent/hookline-data' };
  const version = (
    JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
  ).version;

  it("prints the package's version for --version and exits 0", async () => {
    const hookline = spawnEntry('apps/hookline/src/main.ts', env, ['--', '--version']);
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
    expect(hookline.output()).toBe(`${version}\n`);
  }, 30000);

  it('prints the usage, --version listed, for --help and exits 0', async () => {
    const hookline = spawnEntry('apps/hookline/src/main.ts', env, ['--', '--help']);
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
    expect(hookline.output()).toMatch(/^Usage: pnpm start \[-- --demo \| --help \| --version\]/);
  }, 30000);

  it('refuses an unknown flag with the usage, exit 2', async () => {
    const hookline = spawnEntry('apps/hookline/src/main.ts', env, ['--', '--verbose']);
    expect(await hookline.exited).toEqual({ code: 2, signal: null });
    expect(hookline.output()).toMatch(/^Unknown argument: --verbose\n\nUsage: pnpm start/);
  }, 30000);
});
