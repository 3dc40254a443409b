import { spawnEntry, TEST_REDIS_URL, type SpawnedProcess } from '@hookline/testing';

/**
 * `pnpm start` as a test runs it: the sources' entry point, on any free port of 127.0.0.1, on the tests' Redis
 * under the test's prefix, with `dataDir` as its data directory and `env` on top; killed at the test's cleanup if still running.
 */
export function spawnStart(
  ctx: { readonly prefix: string; onCleanup(fn: () => unknown): void },
  dataDir: string,
  args: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): SpawnedProcess {
  const hookline = spawnEntry(
    'apps/hookline/src/main.ts',
    {
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: TEST_REDIS_URL,
      HOOKLINE_DATA_DIR: dataDir,
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    args,
  );
  ctx.onCleanup(async () => {
    hookline.kill('SIGKILL');
    await hookline.exited;
  });
  return hookline;
}
