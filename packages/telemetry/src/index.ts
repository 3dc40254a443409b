export { createLogger, type Logger } from './logger';
export { createMetrics, type Metrics } from './metrics';
export { fleetMetrics, type FleetMetrics } from './fleet-metrics';
export { serveMetrics } from './metrics-server';
export { closeHttp, logRedisErrors, stopOnSignals, type ClosableHttpApp } from './lifecycle';
export { startTracing, tracingChoice, type ProcessRole, type TracingLog } from './tracing';
