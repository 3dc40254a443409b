import { spawnEntry, TEST_REDIS_URL, type SpawnedProcess } from '@hookline/testing';
import { SECRET_KEY, type ApiHarness } from './api-harness';

/**
 * The production worker process (apps/hookline's worker entry point, run from source) on the harness's Redis
 * prefix and secret key: what the API queues reaches real endpoints on this machine, as in a deployment.
 * Killed after the test, before the prefix's keys go.
 */
export async function startWorker(api: ApiHarness): Promise<SpawnedProcess> {
  const worker = spawnEntry('apps/hookline/src/worker-main.ts', {
    REDIS_URL: TEST_REDIS_URL,
    HOOKLINE_QUEUE_PREFIX: api.ctx.prefix,
    HOOKLINE_SECRET_KEY: SECRET_KEY,
    HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8',
    HOOKLINE_METRICS_PORT: '0',
    LOG_LEVEL: 'info',
  });
  api.ctx.onCleanup(async () => {
    worker.kill('SIGKILL');
    await worker.exited;
  });
  await worker.waitForOutput('worker started');
  return worker;
}
