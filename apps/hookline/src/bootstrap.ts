import { loadConfig, type Config, type ProcessRole } from '@hookline/config';
import type { Tracing } from '@hookline/core';
import { redisWhere, watchPrimarySwitches } from '@hookline/redis';
import {
  createLogger,
  createMetrics,
  logRedisErrors,
  startTracing,
  stopOnSignals,
  type Logger,
  type Metrics,
} from '@hookline/telemetry';
import { STOP_BOUND_MS } from './stop-bounds';

/** What every hookline process starts from: its settings (validated once), a logger and a metrics registry. */
export interface ProcessBase {
  readonly config: Config;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Spans, when the standard OTEL_* variables configure an exporter; undefined (and the SDK not loaded) otherwise. */
  readonly tracing?: Tracing;
  /** Logs a Redis client's connection errors once per change (ioredis repeats them on every retry). */
  watch<T extends Parameters<typeof logRedisErrors>[0]>(redis: T): T;
}

/**
 * The one start-up path of every process (HTTP tier, worker, monitor, all-in-one): config from the
 * environment (or from `env()`, which may prepare it first), logger, metrics; then `start` wires the process and returns how to stop it, which runs once
 * on SIGTERM or SIGINT (finish the work in hand, exit 0). Anything that fails before that exits 1 with the
 * reason on stderr, which for a bad setting lists every problem.
 */
export function runProcess(
  env: NodeJS.ProcessEnv | (() => Promise<NodeJS.ProcessEnv>),
  role: ProcessRole,
  name: string,
  start: (base: ProcessBase) => Promise<() => Promise<void>>,
  /** How long stopping may take before the process exits anyway, from the settings. */
  stopBoundMs: (config: Config) => number = STOP_BOUND_MS[role],
): void {
  const run = async () => {
    const vars = typeof env === 'function' ? await env() : env;
    const config = loadConfig(vars, role);
    const logger = createLogger(config.LOG_LEVEL, name);
    const tracing = startTracing(vars, role, { warn: (message) => logger.warn(message) });
    // Workers and monitors answer no requests: their event-loop lag is sampled each second (metrics.ts).
    const metrics = createMetrics(role === 'worker' || role === 'monitor' ? 'background' : 'requests', role);
    const where = redisWhere(config);
    const watch: ProcessBase['watch'] = (redis) => logRedisErrors(redis, logger, where);
    // With Sentinel, every client of this process leaves a primary the sentinels replaced, even one that hangs
    // and so closes nothing (@hookline/redis, sentinel-switches.ts); stopped last, after the clients.
    const switches = watchPrimarySwitches(config, ({ from, to, left }) =>
      logger.warn(
        { from: `${from.host}:${from.port}`, to: `${to.host}:${to.port}`, connectionsLeft: left },
        'redis sentinels switched the primary',
      ),
    );
    // Handlers first: a signal that arrives while the process is starting (or just after it said it had
    // started) then waits for the start and stops cleanly, instead of killing the process outright.
    const started = start({ config, logger, metrics, watch, ...(tracing ? { tracing } : {}) });
    // The spans still batched are exported last, once the work in hand is done.
    const stop = async () => {
      await (
        await started
      )();
      switches?.close();
      await tracing?.shutdown();
    };
    stopOnSignals(logger, stop, stopBoundMs(config));
    await started;
  };
  run().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
