export { createLogger, type Logger } from './logger';
export { createMetrics, type Metrics } from './metrics';
export { serveMetrics } from './metrics-server';
export { closeHttp, logRedisErrors, stopOnSignals, type ClosableHttpApp } from './lifecycle';
