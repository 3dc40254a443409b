import { createServer, type Server } from 'node:net';
import { spawnEntry, TEST_DATABASE_URL, TEST_REDIS_URL, usePostgres, useRedis } from '@hookline/testing';

/** How a process that cannot listen for its metrics ends: its exit and what it printed. */
async function endOf(
  ctx: ReturnType<typeof useRedis>,
  entry: string,
  env: Record<string, string>,
): Promise<{ exit: unknown; output: string }> {
  const child = spawnEntry(entry, {
    REDIS_URL: TEST_REDIS_URL,
    HOOKLINE_QUEUE_PREFIX: ctx.prefix,
    HOOKLINE_SECRET_KEY: 'a'.repeat(64),
    LOG_LEVEL: 'warn',
    ...env,
  });
  ctx.onCleanup(async () => {
    child.kill('SIGKILL');
    await child.exited;
  });
  return { exit: await child.exited, output: child.output() };
}

// A worker or monitor whose metrics port is taken exits 1 naming HOOKLINE_METRICS_PORT, as the HTTP tier names
// PORT: not with Node's bare `listen EADDRINUSE: address already in use 0.0.0.0:…`.
describe('a worker whose HOOKLINE_METRICS_PORT is taken', () => {
  const ctx = useRedis('metrics-port');
  const PORT = 18651;
  let taken: Server;

  beforeEach(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(PORT, '0.0.0.0', resolve));
  });
  afterEach(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it('exits 1 naming the setting and what to do', async () => {
    expect(
      await endOf(ctx, 'apps/hookline/src/worker-main.ts', { HOOKLINE_METRICS_PORT: String(PORT) }),
    ).toEqual({
      exit: { code: 1, signal: null },
      output:
        `HOOKLINE_METRICS_PORT=${PORT}: another process already listens on it at 0.0.0.0 (listen EADDRINUSE: ` +
        `address already in use 0.0.0.0:${PORT}); give each worker and monitor on this machine a port of its ` +
        'own, or 0 for any free one\n',
    });
  }, 30000);
});

// As the HTTP tier names HOST: Node's `listen EADDRNOTAVAIL: address not available 192.0.2.1` names no setting.
describe('a monitor whose HOOKLINE_METRICS_HOST is no address of this machine', () => {
  const ctx = useRedis('metrics-host');
  const pg = usePostgres('metricshost');

  it('exits 1 naming the setting and what to give instead', async () => {
    const env = {
      DATABASE_URL: TEST_DATABASE_URL,
      HOOKLINE_DATABASE_SCHEMA: pg.schema,
      // TEST-NET-1 (RFC 5737): documentation only, never an address of a machine.
      HOOKLINE_METRICS_HOST: '192.0.2.1',
      HOOKLINE_METRICS_PORT: '0',
    };
    expect(await endOf(ctx, 'apps/hookline/src/monitor-main.ts', env)).toEqual({
      exit: { code: 1, signal: null },
      output:
        'HOOKLINE_METRICS_HOST=192.0.2.1: cannot listen there (listen EADDRNOTAVAIL: address not available ' +
        '192.0.2.1); give an address of this machine (0.0.0.0 or :: for all of them, 127.0.0.1 for this ' +
        'machine only) or a name that resolves to one\n',
    });
  }, 30000);
});
