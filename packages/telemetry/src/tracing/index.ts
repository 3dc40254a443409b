export { startTracing } from './start-tracing';
export {
  ENDPOINT_VARIABLES,
  tracingChoice,
  type ProcessRole,
  type TracingChoice,
  type TracingLog,
} from './tracing-env';
