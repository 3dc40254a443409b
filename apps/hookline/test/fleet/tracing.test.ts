import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import { spawnEntry, startReceiver, TEST_DATABASE_URL, TEST_REDIS_URL, waitUntil } from '@hookline/testing';
import { startOtlpCollector, type ExportedSpan, type OtlpCollector } from '../support/otlp-collector';
import { useHookline } from './harness';

// One call followed from the producer to the endpoint's answer (product.md §19): the HTTP tier and the
// workers run from their production entry points with the standard OTEL_* variables, and export to a real
// OTLP/HTTP receiver in this test, which decodes what they send.
describe('tracing across processes', () => {
  const h = useHookline();
  const API_KEY = 'k'.repeat(32);
  const TRACE = '0af7651916cd43dd8448eb211c80319c';
  const PRODUCER_SPAN = 'b7ad6b7169203331';
  const PARENT = `00-${TRACE}-${PRODUCER_SPAN}-01`;
  const CLIENT = 3;
  const PRODUCER = 4;

  async function httpTier(collector: OtlpCollector, extra: Record<string, string> = {}): Promise<string> {
    const server = spawnEntry('apps/hookline/src/http-main.ts', {
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: TEST_REDIS_URL,
      HOOKLINE_QUEUE_PREFIX: h.ctx.prefix,
      HOOKLINE_API_KEY: API_KEY,
      HOOKLINE_SECRET_KEY: h.secretKeyHex,
      DATABASE_URL: TEST_DATABASE_URL,
      HOOKLINE_DATABASE_SCHEMA: h.pg.schema,
      // Probes leave from the HTTP tier, to receivers on loopback.
      HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8',
      LOG_LEVEL: 'info',
      ...collector.env,
      ...extra,
    });
    h.ctx.onCleanup(async () => {
      server.kill('SIGKILL');
      await server.exited;
    });
    await server.waitForOutput('Server listening at');
    const base = `http://${/Server listening at http:\/\/(127\.0\.0\.1:\d+)/.exec(server.output())![1]}`;
    // The request client fails fast (503) until it has connected to Redis.
    await waitUntil(async () => (await fetch(`${base}/readyz`)).ok, 'the HTTP tier ready');
    return base;
  }

  const call = (base: string, method: string, path: string, body?: unknown, headers = {}) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  const publish = (base: string, accountId: string, headers: Record<string, string>) =>
    call(
      base,
      'POST',
      `/v1/accounts/${accountId}/events`,
      { type: 'call_created', data: SAMPLE_CALL_DATA },
      headers,
    );
  const deliveryOf = (collector: OtlpCollector, match: (s: ExportedSpan) => boolean, timeoutMs?: number) =>
    collector.waitForSpan(
      'a hookline.delivery span',
      (s) => s.name === 'hookline.delivery' && match(s),
      timeoutMs,
    );

  /**
   * Publishes in the producer's trace to a hook whose attempt ends before any request (`outcome`): the attempt
   * is an error span there all the same, and its history record keeps the span's trace and span ids.
   */
  async function expectUnsentAttemptInTrace(
    collector: OtlpCollector,
    accountId: string,
    hookId: string,
    outcome: 'error' | 'failed',
  ): Promise<void> {
    const { id: eventId } = await h.producer.publish(
      accountId,
      { type: 'call_created', data: { ...SAMPLE_CALL_DATA } },
      { trace: { traceparent: PARENT } },
    );
    const span = await deliveryOf(collector, (s) => s.attributes['hookline.event_id'] === eventId);
    expect(span).toMatchObject({
      traceId: TRACE,
      parentSpanId: PRODUCER_SPAN,
      statusCode: 2,
      attributes: { 'hookline.hook_id': hookId, 'hookline.outcome': outcome },
    });
    const [line] = await waitUntil(async () => {
      const log = await h.deliveries(hookId);
      return log.length === 1 ? log : undefined;
    }, `the ${outcome} record`);
    expect(line).toMatchObject({ outcome, attempt_id: span.attributes['hookline.attempt_id'] });
    const record = await h.reader.attempt(accountId, hookId, line!.attempt_id);
    expect(record).toMatchObject({ outcome, trace_id: TRACE, span_id: span.spanId });
  }

  /** An OTLP collector, an endpoint (answering 200 unless told otherwise), and an account with a hook to it. */
  async function tracedHook(respond?: Parameters<typeof startReceiver>[0]) {
    const collector = await startOtlpCollector(h.ctx.closeLater);
    const endpoint = h.ctx.closeLater(await startReceiver(respond));
    const account = await h.account();
    const hook = await h.hook(account.id, { url: endpoint.url() });
    return { collector, endpoint, account, hook };
  }

  it('puts the publish, the fan-out, the attempt and a send-again in the producer’s trace; the endpoint gets it', async () => {
    const { collector, endpoint, account, hook } = await tracedHook();
    const base = await httpTier(collector);
    const worker = h.spawnWorker(undefined, { ...collector.env, HOOKLINE_TRACE_PROPAGATE: 'true' });
    await worker.waitForOutput('worker started');

    const res = await publish(base, account.id, { traceparent: PARENT, tracestate: 'pbx=7' });
    expect(res.status).toBe(202);
    const eventId = ((await res.json()) as { id: string }).id;
    await endpoint.waitFor(1);

    const delivery = await deliveryOf(collector, (s) => s.attributes['hookline.event_id'] === eventId);
    const publishSpan = await collector.waitForSpan('the publish span', (s) => s.name === 'hookline.publish');
    const fanOut = await collector.waitForSpan('the fan-out span', (s) => s.name === 'hookline.fanout');
    expect(publishSpan).toMatchObject({
      traceId: TRACE,
      parentSpanId: PRODUCER_SPAN,
      kind: PRODUCER,
      attributes: { 'hookline.account_id': account.id, 'hookline.event_id': eventId, 'hookline.hooks': 1 },
      resource: { 'hookline.role': 'api', 'service.name': 'hookline-api' },
    });
    expect(fanOut).toMatchObject({ traceId: TRACE, parentSpanId: publishSpan.spanId });
    expect(delivery).toMatchObject({
      traceId: TRACE,
      parentSpanId: publishSpan.spanId,
      kind: CLIENT,
      statusCode: 0,
      attributes: {
        'hookline.hook_id': hook.id,
        'hookline.event_id': eventId,
        'hookline.event_kind': 'call_created',
        'hookline.attempt_id': expect.stringMatching(/^att_/),
        'hookline.trigger': 'auto',
        'hookline.outcome': 'delivered',
        'http.response.status_code': 200,
      },
      resource: { 'hookline.role': 'worker', 'service.name': 'hookline-worker' },
    });
    // Propagation: the endpoint's request names the attempt's span, with the producer's tracestate.
    expect(endpoint.requests[0]!.headers.traceparent).toBe(`00-${TRACE}-${delivery.spanId}-01`);
    expect(endpoint.requests[0]!.headers.tracestate).toBe('pbx=7');

    // The history keeps the trace: the attempt's record names it.
    const attemptId = String(delivery.attributes['hookline.attempt_id']);
    const attemptPath = `/v1/accounts/${account.id}/hooks/${hook.id}/deliveries/${attemptId}`;
    const detail = await waitUntil(async () => {
      const answer = await call(base, 'GET', attemptPath);
      return answer.ok ? ((await answer.json()) as Record<string, unknown>) : undefined;
    }, 'the attempt in the history');
    expect(detail).toMatchObject({ attempt_id: attemptId, trace_id: TRACE, span_id: delivery.spanId });

    // A send-again is a new attempt span in the same trace, under the send-again's own span.
    const resent = await call(base, 'POST', `${attemptPath}/resend`);
    expect(resent.status).toBe(202);
    const again = ((await resent.json()) as { attempt_id: string }).attempt_id;
    await endpoint.waitFor(2);
    const second = await deliveryOf(collector, (s) => s.attributes['hookline.attempt_id'] === again);
    const resend = await collector.waitForSpan('the send-again span', (s) => s.name === 'hookline.resend');
    expect(resend).toMatchObject({ traceId: TRACE, parentSpanId: delivery.spanId });
    expect(second).toMatchObject({
      traceId: TRACE,
      parentSpanId: resend.spanId,
      attributes: {
        'hookline.trigger': 'manual',
        'hookline.event_id': eventId,
        'hookline.outcome': 'delivered',
      },
    });
    expect(second.spanId).not.toBe(delivery.spanId);
    expect(endpoint.requests[1]!.headers.traceparent).toBe(`00-${TRACE}-${second.spanId}-01`);
  }, 60000);

  it('records a probe (Test & re-enable) as a delivery span of its own, sent by the HTTP tier', async () => {
    // The endpoint refuses the first probe and takes the second.
    const { collector, endpoint, account, hook } = await tracedHook((_req, i) =>
      i === 0 ? { kind: 'status', status: 500 } : { kind: 'status', status: 200 },
    );
    const base = await httpTier(collector, { HOOKLINE_TRACE_PROPAGATE: 'true' });
    await h.hookQueues.pause(hook.id);
    const enable = () =>
      call(base, 'POST', `/v1/accounts/${account.id}/hooks/${hook.id}/enable`, {
        held: 'deliver',
        probe: true,
      });
    const probeSpan = (outcome: string) =>
      collector.waitForSpan(
        `the ${outcome} probe span`,
        (s) =>
          s.name === 'hookline.delivery' &&
          s.attributes['hookline.trigger'] === 'probe' &&
          s.attributes['hookline.outcome'] === outcome,
      );

    expect((await enable()).status).toBe(409);
    const refused = await probeSpan('failed');
    // An ERROR status says why, as a delivery's does.
    expect(refused).toMatchObject({ statusCode: 2, statusMessage: 'failed: the endpoint answered 500' });
    expect((await enable()).status).toBe(200);
    expect(endpoint.requests).toHaveLength(2);
    const probe = await probeSpan('delivered');
    expect(probe).toMatchObject({
      parentSpanId: '',
      attributes: { 'hookline.hook_id': hook.id, 'http.response.status_code': 200 },
    });
    // HOOKLINE_TRACE_PROPAGATE: a probe carries traceparent as a delivery does, naming its span.
    expect(endpoint.requests.map((r) => r.headers.traceparent)).toEqual([
      `00-${refused.traceId}-${refused.spanId}-01`,
      `00-${probe.traceId}-${probe.spanId}-01`,
    ]);
    const [line] = (await h.deliveries(hook.id)).filter(
      (r) => r.attempt_id === probe.attributes['hookline.attempt_id'],
    );
    const record = await h.reader.attempt(account.id, hook.id, line!.attempt_id);
    expect(record).toMatchObject({ trigger: 'probe', trace_id: probe.traceId, span_id: probe.spanId });
  }, 60000);

  it("names the first publish's event in a repeated publish's span, marked a duplicate", async () => {
    const { collector, account } = await tracedHook();
    const base = await httpTier(collector);
    const body = { type: 'call_created', id: 'call-once', data: SAMPLE_CALL_DATA };
    const first = await call(base, 'POST', `/v1/accounts/${account.id}/events`, body);
    const again = await call(base, 'POST', `/v1/accounts/${account.id}/events`, body);
    expect([first.status, again.status]).toEqual([202, 200]);
    const { id } = (await first.json()) as { id: string };
    expect(((await again.json()) as { id: string }).id).toBe(id);
    const repeat = await collector.waitForSpan(
      'the repeated publish span',
      (s) => s.name === 'hookline.publish' && s.attributes['hookline.duplicate'] === true,
    );
    expect(repeat.attributes['hookline.event_id']).toBe(id);
  }, 60000);

  it('starts a new trace for a publish without traceparent; a held event keeps its trace across a suspension', async () => {
    const { collector, endpoint, account, hook } = await tracedHook();
    const base = await httpTier(collector);
    const worker = h.spawnWorker(undefined, collector.env);
    await worker.waitForOutput('worker started');

    // Suspended: the hook's queue is paused (its single source of truth); the event is held.
    await h.hookQueues.pause(hook.id);
    const held = await publish(base, account.id, { traceparent: PARENT });
    expect(held.status).toBe(202);
    const heldId = ((await held.json()) as { id: string }).id;
    const fresh = await publish(base, account.id, {});
    const freshId = ((await fresh.json()) as { id: string }).id;
    await waitUntil(async () => (await h.hookQueues.waitingCount(hook.id)) === 2, 'both events held');
    expect(endpoint.requests).toHaveLength(0);

    const enabled = await call(base, 'POST', `/v1/accounts/${account.id}/hooks/${hook.id}/enable`, {
      held: 'deliver',
    });
    expect(enabled.status).toBe(200);
    await endpoint.waitFor(2);
    // The HTTP tier exports its spans in batches: the deliveries can arrive before the publishes' spans do.
    const publishOf = (id: string) =>
      collector.waitForSpan(
        `the publish span of ${id}`,
        (s) => s.name === 'hookline.publish' && s.attributes['hookline.event_id'] === id,
      );
    const heldPublish = await publishOf(heldId);
    const freshPublish = await publishOf(freshId);
    expect(heldPublish).toMatchObject({ traceId: TRACE, parentSpanId: PRODUCER_SPAN });
    expect(freshPublish.parentSpanId).toBe('');
    expect(freshPublish.traceId).not.toBe(TRACE);
    const heldDelivery = await deliveryOf(collector, (s) => s.attributes['hookline.event_id'] === heldId);
    const freshDelivery = await deliveryOf(collector, (s) => s.attributes['hookline.event_id'] === freshId);
    expect(heldDelivery).toMatchObject({ traceId: TRACE, parentSpanId: heldPublish.spanId });
    expect(freshDelivery).toMatchObject({ traceId: freshPublish.traceId, parentSpanId: freshPublish.spanId });
    // Propagation is off by default: the endpoint gets exactly §3's headers.
    expect(endpoint.requests[0]!.headers).not.toHaveProperty('traceparent');
  }, 60000);

  it('records the take-over of an attempt cut short by kill -9 as an unknown span in the trace', async () => {
    const { collector, endpoint, account, hook } = await tracedHook(() => ({ kind: 'hang' }));
    // A short deadline makes the job's lock (deadline + 10 s) expire sooner after the kill.
    const env = { ...collector.env, HOOKLINE_DELIVERY_TIMEOUT_MS: '2000' };
    const doomed = h.spawnWorker(undefined, env);
    await doomed.waitForOutput('worker started');
    // The in-process producer has no exporter: the producer's own span is the attempts' parent.
    const { id: eventId } = await h.producer.publish(
      account.id,
      { type: 'call_created', data: { ...SAMPLE_CALL_DATA } },
      { trace: { traceparent: PARENT } },
    );
    await endpoint.waitFor(1);
    doomed.kill('SIGKILL');
    await doomed.exited;

    const survivor = h.spawnWorker(undefined, env);
    await survivor.waitForOutput('worker started');
    const unknown = await deliveryOf(collector, (s) => s.attributes['hookline.outcome'] === 'unknown', 40000);
    expect(unknown).toMatchObject({
      traceId: TRACE,
      parentSpanId: PRODUCER_SPAN,
      statusCode: 2,
      attributes: { 'hookline.hook_id': hook.id, 'hookline.event_id': eventId },
    });
    // The killed attempt's span died with its process: the take-over's is the only one.
    expect(collector.spans().filter((s) => s.name === 'hookline.delivery')).toHaveLength(1);
    const [record] = await waitUntil(async () => {
      const log = await h.deliveries(hook.id);
      return log.length === 1 ? log : undefined;
    }, 'the unknown record');
    expect(record).toMatchObject({
      outcome: 'unknown',
      attempt_id: unknown.attributes['hookline.attempt_id'],
    });
    expect(endpoint.requests).toHaveLength(1);
  }, 60000);

  it('records an attempt that got no OAuth 2.0 token as an error span in the trace, kept by its history record', async () => {
    const collector = await startOtlpCollector(h.ctx.closeLater);
    const endpoint = h.ctx.closeLater(await startReceiver());
    // A token endpoint that does not know the client.
    const tokens = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":"invalid_client"}');
    });
    await new Promise<void>((r) => tokens.listen(0, '127.0.0.1', r));
    h.ctx.onCleanup(() => new Promise((r) => tokens.close(r)));
    const account = await h.account();
    const hook = await h.hook(account.id, {
      url: endpoint.url(),
      auth: {
        scheme: 'oauth2',
        token_url: `http://127.0.0.1:${(tokens.address() as AddressInfo).port}/oauth/token`,
        client_id: 'hookline',
        client_secret: 's3cret',
      },
    });
    const worker = h.spawnWorker(undefined, collector.env);
    await worker.waitForOutput('worker started');

    await expectUnsentAttemptInTrace(collector, account.id, hook.id, 'error');
    expect(endpoint.requests).toHaveLength(0);
  }, 60000);

  it('records an attempt that could not be sent (credentials that do not open) as an error span in the trace', async () => {
    const collector = await startOtlpCollector(h.ctx.closeLater);
    const endpoint = h.ctx.closeLater(await startReceiver());
    const account = await h.account();
    const hook = await h.hook(account.id, {
      url: endpoint.url(),
      auth: { scheme: 'bearer', token: 'tok_123456' },
    });
    // Another HOOKLINE_SECRET_KEY, as after it was changed: the hook's sealed credentials do not open.
    const worker = h.spawnWorker(undefined, { ...collector.env, HOOKLINE_SECRET_KEY: 'ab'.repeat(32) });
    await worker.waitForOutput('worker started');

    await expectUnsentAttemptInTrace(collector, account.id, hook.id, 'failed');
    expect(endpoint.requests).toHaveLength(0);
  }, 60000);
});
