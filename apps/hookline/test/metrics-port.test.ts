import { createServer, type Server } from 'node:net';
import { spawnEntry, TEST_REDIS_URL, useRedis } from '@hookline/testing';

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
    const worker = spawnEntry('apps/hookline/src/worker-main.ts', {
      REDIS_URL: TEST_REDIS_URL,
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_SECRET_KEY: 'a'.repeat(64),
      HOOKLINE_METRICS_PORT: String(PORT),
      LOG_LEVEL: 'warn',
    });
    ctx.onCleanup(async () => {
      worker.kill('SIGKILL');
      await worker.exited;
    });
    expect(await worker.exited).toEqual({ code: 1, signal: null });
    expect(worker.output()).toBe(
      `HOOKLINE_METRICS_PORT=${PORT}: another process already listens on it at 0.0.0.0 (listen EADDRINUSE: ` +
        `address already in use 0.0.0.0:${PORT}); give each worker and monitor on this machine a port of its ` +
        'own, or 0 for any free one\n',
    );
  }, 30000);
});
