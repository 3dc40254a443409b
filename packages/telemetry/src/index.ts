export { createLogger, type Logger } from './logger';
export { createMetrics, type Metrics } from './metrics';
export { fleetMetrics, type FleetMetrics } from './fleet-metrics';
export { refreshedOnScrape, SCRAPE_REFRESH_BOUND_MS } from './on-scrape';
export { serveMetrics } from './metrics-server';
export {
  closeHttp,
  logRedisErrors,
  stopOnSignals,
  watchedDuplicate,
  type ClosableHttpApp,
  type RedisPlace,
} from './lifecycle';
export { startTracing, tracingChoice, type ProcessRole, type TracingLog } from './tracing';
