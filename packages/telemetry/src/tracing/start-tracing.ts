import type { Tracing } from '@hookline/core';
import { tracingChoice, type ProcessRole, type TracingLog } from './tracing-env';
// Types only: erased from the output, so loading this file loads nothing of the SDK.
import type * as OtelTracing from './otel-tracing';

/**
 * The process's tracing, from the standard `OTEL_*` variables: undefined when they configure no exporter, and
 * then not one module of the OpenTelemetry SDK is loaded (the require below is never reached), so a process
 * without tracing pays nothing for it.
 */
export function startTracing(
  env: NodeJS.ProcessEnv,
  role: ProcessRole,
  log?: TracingLog,
): Tracing | undefined {
  const choice = tracingChoice(env);
  if (!choice) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createOtelTracing } = require('./otel-tracing') as typeof OtelTracing;
  return createOtelTracing(choice, role, log);
}
