export { createLogger, type Logger } from './logger';
export { createMetrics, type Metrics } from './metrics';
