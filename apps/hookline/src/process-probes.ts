import type { Config } from '@hookline/config';
import { READY_WITHIN_MS, readinessOf, stoppingProcess } from '@hookline/core';
import { historyAnswers, type SqlClient } from '@hookline/history';
import { answersWithin } from '@hookline/redis';
import { serveMetrics, type Metrics } from '@hookline/telemetry';

export interface ProcessProbes {
  readonly port: number;
  /** From now on /readyz answers 503 STOPPING: called first thing on SIGTERM, while the work in hand finishes. */
  stopping(): void;
  close(): Promise<void>;
}

/**
 * /metrics, /healthz and /readyz of a worker or monitor on HOOKLINE_METRICS_HOST:HOOKLINE_METRICS_PORT. Ready,
 * as the HTTP tier's /readyz says it: Redis answers (on a Cluster: and serves) and, for a process that writes
 * the delivery history, so does PostgreSQL, each within READY_WITHIN_MS and asked side by side; and the process
 * is not stopping.
 */
export async function serveProcessProbes(
  config: Pick<Config, 'HOOKLINE_METRICS_HOST' | 'HOOKLINE_METRICS_PORT'>,
  metrics: Metrics,
  dependencies: {
    readonly redis: Parameters<typeof answersWithin>[0];
    readonly history?: Pick<SqlClient, 'query'>;
  },
): Promise<ProcessProbes> {
  let stopping = false;
  const { redis, history } = dependencies;
  const server = await serveMetrics(metrics.registry, {
    port: config.HOOKLINE_METRICS_PORT,
    host: config.HOOKLINE_METRICS_HOST,
    readiness: async () => {
      if (stopping) return stoppingProcess();
      const [redisAnswer, postgres] = await Promise.all([
        answersWithin(redis, READY_WITHIN_MS),
        history ? historyAnswers(history, READY_WITHIN_MS) : undefined,
      ]);
      return readinessOf({ redis: redisAnswer, ...(postgres ? { postgres } : {}) });
    },
  });
  return {
    port: server.port,
    stopping: () => {
      stopping = true;
    },
    close: () => server.close(),
  };
}
