import type { Config, ProcessRole } from '@hookline/config';

/**
 * How long each process may take to stop on SIGTERM before it exits anyway (exit 1), from its settings. An
 * orchestrator's stop grace must exceed these, or it kills the process while it is still finishing its work
 * (docker-compose.yml sets each service's `stop_grace_period` above them; a test checks it).
 */
export const STOP_BOUND_MS: Readonly<Record<ProcessRole, (config: Config) => number>> = {
  // The drain, then a few seconds to close the clients.
  api: (config) => config.HOOKLINE_HTTP_DRAIN_MS + 5_000,
  // The attempt in flight may take the whole deadline; then a few seconds to give the hooks back.
  worker: (config) => config.HOOKLINE_DELIVERY_TIMEOUT_MS + 5_000,
  // Its loops' rounds in hand (3 s of them while Redis does not answer, see monitor-main.ts).
  monitor: () => 30_000,
  'all-in-one': (config) =>
    Math.max(config.HOOKLINE_HTTP_DRAIN_MS, config.HOOKLINE_DELIVERY_TIMEOUT_MS) + 5_000,
};
