import { spawnEntry, TEST_DATABASE_URL, TEST_REDIS_URL, useRedis } from '@hookline/testing';

// A process that cannot open its history database exits 1 with one line naming DATABASE_URL (the password
// hidden) and what to do, as it does for Redis: not the driver's bare `connect ECONNREFUSED …`.
describe('a monitor whose DATABASE_URL cannot be used', () => {
  const ctx = useRedis('history-start');

  async function monitorWith(databaseUrl: string) {
    const monitor = spawnEntry('apps/hookline/src/monitor-main.ts', {
      REDIS_URL: TEST_REDIS_URL,
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_SECRET_KEY: 'a'.repeat(64),
      DATABASE_URL: databaseUrl,
      HOOKLINE_METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
    });
    ctx.onCleanup(async () => {
      monitor.kill('SIGKILL');
      await monitor.exited;
    });
    return { exited: await monitor.exited, output: monitor.output() };
  }

  it('says PostgreSQL does not answer there, without the password', async () => {
    // Nothing listens on this port of the tests' range.
    const { exited, output } = await monitorWith('postgres://hookline:Secr3tPass@127.0.0.1:18697/hookline');
    expect(exited).toEqual({ code: 1, signal: null });
    expect(output).toBe(
      'PostgreSQL does not answer at DATABASE_URL=postgres://hookline:****@127.0.0.1:18697/hookline ' +
        '(connect ECONNREFUSED 127.0.0.1:18697): start it, or correct DATABASE_URL\n',
    );
  }, 30000);

  it('says the database does not exist, and what to do', async () => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = '/hookline_no_such_database';
    const { exited, output } = await monitorWith(url.toString());
    expect(exited).toEqual({ code: 1, signal: null });
    expect(output).toMatch(
      /^PostgreSQL at DATABASE_URL=postgres:\/\/\S+\/hookline_no_such_database refused: database "hookline_no_such_database" does not exist\. Create that database \(createdb\), or correct DATABASE_URL\n$/,
    );
  }, 30000);

  it('refuses a URL with a space in it at start, naming the setting', async () => {
    const { exited, output } = await monitorWith(`${TEST_DATABASE_URL} extra`);
    expect(exited).toEqual({ code: 1, signal: null });
    expect(output).toContain('  - DATABASE_URL: must not contain spaces');
  }, 30000);
});
