// Which tracing the standard OpenTelemetry variables ask for (https://opentelemetry.io/docs/specs/otel/
// configuration/sdk-environment-variables/): read here, before anything of the SDK is loaded, so that a
// process without an exporter endpoint never loads it. hookline has no tracing settings of its own.

/** What a process is, as its spans' resource says (`hookline.role`, and the default `service.name`). */
export type ProcessRole = 'api' | 'worker' | 'monitor' | 'all-in-one';

/** Where the SDK's own complaints go (an exporter that cannot reach its collector, say). */
export interface TracingLog {
  warn(message: string): void;
}

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export type SamplerChoice =
  | { readonly kind: 'always_on' | 'always_off' | 'parentbased_always_on' | 'parentbased_always_off' }
  | { readonly kind: 'traceidratio' | 'parentbased_traceidratio'; readonly ratio: number };

export interface BatchChoice {
  readonly scheduledDelayMillis?: number;
  readonly exportTimeoutMillis?: number;
  readonly maxQueueSize?: number;
  readonly maxExportBatchSize?: number;
}

export interface TracingChoice {
  readonly protocol: OtlpProtocol;
  readonly sampler: SamplerChoice;
  readonly batch: BatchChoice;
}

/** The variables that name where spans go: without one of them, tracing is off. */
export const ENDPOINT_VARIABLES = [
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
] as const;

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const BATCH_VARIABLES: readonly [string, keyof BatchChoice][] = [
  ['OTEL_BSP_SCHEDULE_DELAY', 'scheduledDelayMillis'],
  ['OTEL_BSP_EXPORT_TIMEOUT', 'exportTimeoutMillis'],
  ['OTEL_BSP_MAX_QUEUE_SIZE', 'maxQueueSize'],
  ['OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 'maxExportBatchSize'],
];

const set = (value: string | undefined) => value !== undefined && value.trim() !== '';

/**
 * Undefined when tracing is off: no endpoint variable, `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`.
 * Throws with every problem listed when the variables ask for something hookline cannot do (a process
 * should not start believing it traces when it does not).
 */
export function tracingChoice(env: NodeJS.ProcessEnv): TracingChoice | undefined {
  if (!ENDPOINT_VARIABLES.some((name) => set(env[name]))) return undefined;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((e) => e.trim().toLowerCase());
  if (exporters.includes('none')) return undefined;
  const problems: string[] = [];
  if (exporters.some((e) => e !== 'otlp' && e !== ''))
    problems.push(
      `OTEL_TRACES_EXPORTER: only otlp (or none) is supported, not "${env.OTEL_TRACES_EXPORTER}"`,
    );
  const protocolVariable = set(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL)
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = (env[protocolVariable]?.trim() || 'http/protobuf') as OtlpProtocol;
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    problems.push(
      `${protocolVariable}: http/protobuf or http/json (grpc is not supported), not "${protocol}"`,
    );
  for (const variable of ENDPOINT_VARIABLES) {
    const raw = env[variable];
    // The exporter would take `collector:4318` and fail at every export with ERR_INVALID_PROTOCOL, naming nothing.
    if (set(raw) && !isHttpUrl(raw!.trim()))
      problems.push(
        `${variable}: must be an http:// or https:// URL (e.g. http://otel-collector:4318), not "${raw}"`,
      );
  }
  const sampler = samplerChoice(env, problems);
  const batch: Record<string, number> = {};
  for (const [variable, option] of BATCH_VARIABLES) {
    const raw = env[variable];
    if (!set(raw)) continue;
    const value = Number(raw);
    if (Number.isInteger(value) && value >= 0) batch[option] = value;
    else problems.push(`${variable}: must be a whole number, not "${raw}"`);
  }
  if (problems.length > 0) throw new Error(`OpenTelemetry settings:\n  ${problems.join('\n  ')}`);
  return { protocol, sampler, batch };
}

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function samplerChoice(env: NodeJS.ProcessEnv, problems: string[]): SamplerChoice {
  const kind = (env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on') as
    (typeof SAMPLERS)[number] | string;
  if (!(SAMPLERS as readonly string[]).includes(kind)) {
    problems.push(`OTEL_TRACES_SAMPLER: one of ${SAMPLERS.join(', ')}, not "${env.OTEL_TRACES_SAMPLER}"`);
    return { kind: 'parentbased_always_on' };
  }
  if (kind !== 'traceidratio' && kind !== 'parentbased_traceidratio')
    return { kind: kind as Exclude<SamplerChoice['kind'], 'traceidratio' | 'parentbased_traceidratio'> };
  const raw = env.OTEL_TRACES_SAMPLER_ARG;
  const ratio = set(raw) ? Number(raw) : 1;
  if (!(ratio >= 0 && ratio <= 1)) {
    problems.push(`OTEL_TRACES_SAMPLER_ARG: a ratio from 0 to 1, not "${raw}"`);
    return { kind, ratio: 1 };
  }
  return { kind, ratio };
}
