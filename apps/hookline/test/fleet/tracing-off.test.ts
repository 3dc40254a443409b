import { SAMPLE_CALL_DATA } from '@hookline/core';
import { startReceiver, waitUntil } from '@hookline/testing';
import { startOtlpCollector } from '../support/otlp-collector';
import { useHookline } from './harness';

// A process started without the OTEL_* variables pays nothing for tracing (no SDK module is loaded), yet a
// producer's trace context still reaches the history and, with propagation on, the endpoint.
describe('without OTEL_* variables', () => {
  const h = useHookline();
  const CENSUS = 'apps/hookline/test/fleet/fixtures/module-census-worker.ts';

  async function loadedBy(env: Record<string, string>): Promise<string[]> {
    const worker = h.spawnWorker(CENSUS, env);
    await worker.waitForOutput('worker started');
    worker.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
    return JSON.parse(/otel modules: (.*)/.exec(worker.output())![1]!) as string[];
  }

  it('a worker loads nothing of the OpenTelemetry SDK (only the no-op API prom-client brings)', async () => {
    const loaded = await loadedBy({});
    expect(loaded.filter((name) => name !== 'api')).toEqual([]);
  }, 30000);

  it('and with an exporter endpoint set, it does (the census can see the SDK)', async () => {
    const collector = await startOtlpCollector(h.ctx.closeLater);
    const loaded = await loadedBy(collector.env);
    expect(loaded).toEqual(
      expect.arrayContaining(['sdk-trace', 'exporter-trace-otlp-http', 'resources', 'hookline:otel-tracing']),
    );
  }, 30000);

  it("still joins and passes on the producer's trace: the history keeps it, propagation sends it as given", async () => {
    const endpoint = h.ctx.closeLater(await startReceiver());
    const account = await h.account();
    const hook = await h.hook(account.id, { url: endpoint.url() });
    const worker = h.spawnWorker(undefined, { HOOKLINE_TRACE_PROPAGATE: 'true' });
    await worker.waitForOutput('worker started');
    const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await h.producer.publish(
      account.id,
      { type: 'call_created', data: { ...SAMPLE_CALL_DATA } },
      { trace: { traceparent: parent, tracestate: 'pbx=7' } },
    );
    await endpoint.waitFor(1);
    expect(endpoint.requests[0]!.headers).toMatchObject({ traceparent: parent, tracestate: 'pbx=7' });
    const [line] = await waitUntil(async () => {
      const log = await h.deliveries(hook.id);
      return log.length === 1 ? log : undefined;
    }, 'the record');
    expect(await h.reader.attempt(account.id, hook.id, line!.attempt_id)).toMatchObject({
      trace_id: '0af7651916cd43dd8448eb211c80319c',
      span_id: 'b7ad6b7169203331',
    });
  }, 30000);

  it('with propagation and no trace at all, sends the root of a new trace, which the history keeps', async () => {
    const endpoint = h.ctx.closeLater(await startReceiver());
    const account = await h.account();
    const hook = await h.hook(account.id, { url: endpoint.url() });
    const worker = h.spawnWorker(undefined, { HOOKLINE_TRACE_PROPAGATE: 'true' });
    await worker.waitForOutput('worker started');
    for (let i = 0; i < 2; i++)
      await h.producer.publish(account.id, { type: 'call_created', data: { ...SAMPLE_CALL_DATA } });
    await endpoint.waitFor(2);
    const sent = endpoint.requests.map((r) => r.headers.traceparent as string);
    for (const traceparent of sent) expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    // One trace per attempt, never a shared or made-up constant one.
    expect(new Set(sent.map((t) => t.split('-')[1])).size).toBe(2);
    expect(endpoint.requests.every((r) => r.headers.tracestate === undefined)).toBe(true);
    const log = await waitUntil(async () => {
      const lines = await h.deliveries(hook.id);
      return lines.length === 2 ? lines : undefined;
    }, 'the records');
    const kept = await Promise.all(
      log.map(async (line) => {
        const record = await h.reader.attempt(account.id, hook.id, line.attempt_id);
        return `00-${record!.trace_id}-${record!.span_id}-01`;
      }),
    );
    expect(kept.sort()).toEqual([...sent].sort());
  }, 30000);
});
