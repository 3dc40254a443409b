import { startReceiver } from '@hookline/testing';
import { startTracing } from './start-tracing';
import { tracingChoice } from './tracing-env';

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };

describe('the standard OTEL_* variables', () => {
  it('turn tracing on only with an exporter endpoint, and off with OTEL_SDK_DISABLED or exporter none', () => {
    expect(tracingChoice({})).toBeUndefined();
    expect(tracingChoice({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' })).toBeUndefined();
    expect(tracingChoice({ ...ENDPOINT, OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracingChoice({ ...ENDPOINT, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(tracingChoice({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toEqual({
      protocol: 'http/protobuf',
      sampler: { kind: 'parentbased_always_on' },
      batch: {},
    });
    expect(startTracing({}, 'worker')).toBeUndefined();
  });

  it('choose the protocol (traces-specific first), the sampler and the batch timings', () => {
    expect(
      tracingChoice({
        ...ENDPOINT,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '64',
      }),
    ).toEqual({
      protocol: 'http/json',
      sampler: { kind: 'parentbased_traceidratio', ratio: 0.25 },
      batch: { scheduledDelayMillis: 200, maxExportBatchSize: 64 },
    });
  });

  it('stop the process with every problem listed when they ask for what hookline cannot do', () => {
    expect(() =>
      tracingChoice({
        ...ENDPOINT,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_TRACES_SAMPLER: 'sometimes',
        OTEL_BSP_SCHEDULE_DELAY: 'soon',
        OTEL_TRACES_EXPORTER: 'zipkin',
      }),
    ).toThrow(
      /OTEL_TRACES_EXPORTER: only otlp[\s\S]*OTEL_EXPORTER_OTLP_PROTOCOL: http\/protobuf or http\/json \(grpc is not supported\)[\s\S]*OTEL_TRACES_SAMPLER: one of[\s\S]*OTEL_BSP_SCHEDULE_DELAY: must be a whole number/,
    );
    expect(() =>
      tracingChoice({ ...ENDPOINT, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }),
    ).toThrow(/OTEL_TRACES_SAMPLER_ARG: a ratio from 0 to 1/);
  });

  // Without a scheme the exporter failed at every export (ERR_INVALID_PROTOCOL) and never named the variable.
  it.each([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'grpc://collector:4317'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'collector:4318/v1/traces'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'not a url'],
  ])('refuse %s=%s, which is no http(s) URL, naming the variable', (variable, value) => {
    expect(() => tracingChoice({ [variable]: value })).toThrow(
      `OpenTelemetry settings:\n  ${variable}: must be an http:// or https:// URL (e.g. http://otel-collector:4318), not "${value}"`,
    );
  });
});

describe('the default protocol, http/protobuf', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it('posts the spans as OTLP protobuf to <endpoint>/v1/traces, and shutdown sends what is left', async () => {
    const collector = await startReceiver();
    try {
      // The exporter reads its endpoint from the process's environment, as the SDK's own variables say.
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${collector.port}`;
      delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
      const tracing = startTracing(process.env, 'monitor')!;
      const span = tracing.start('hookline.fanout', undefined, { 'hookline.event_id': 'evt_1' });
      span.end();
      await tracing.shutdown();
      expect(collector.requests).toHaveLength(1);
      const [request] = collector.requests;
      expect(request).toMatchObject({ method: 'POST', path: '/v1/traces' });
      expect(request!.headers['content-type']).toBe('application/x-protobuf');
      // The trace id travels as 16 raw bytes; the span name and the role as text.
      expect(request!.body.includes(Buffer.from(span.traceId, 'hex'))).toBe(true);
      expect(request!.body.includes(Buffer.from('hookline.fanout'))).toBe(true);
      expect(request!.body.includes(Buffer.from('hookline-monitor'))).toBe(true);
      expect(span.context.traceparent).toBe(`00-${span.traceId}-${span.spanId}-01`);
    } finally {
      await collector.close();
    }
  });

  it('gives up on a collector that never answers when the process stops, instead of holding the stop', async () => {
    const collector = await startReceiver(() => ({ kind: 'hang' }));
    try {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${collector.port}`;
      // Longer than this test may run: only the tracing's own bound can end the shutdown in time.
      process.env.OTEL_EXPORTER_OTLP_TIMEOUT = '120000';
      const warnings: string[] = [];
      const tracing = startTracing(process.env, 'api', { warn: (m) => warnings.push(m) })!;
      tracing.start('hookline.publish', undefined, {}).end();
      await tracing.shutdown();
      expect(collector.requests).toHaveLength(1);
      expect(warnings.join('\n')).toMatch(/not exported within 3000 ms of stopping/);
    } finally {
      await collector.close();
    }
  }, 20000);
});
