import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { AuditOutbox, HistoryOutbox, redisKeys, type RedisKeys } from '@hookline/redis';
import {
  deliveryUserAgent,
  newId,
  SAMPLE_CALL_CREATED,
  type AttemptRecord,
  type CreateHookInput,
  type EventCatalog,
} from '@hookline/core';
import {
  AuditReader,
  AuditTrail,
  DeliveryLog,
  HistoryReader,
  openHistory,
  pgClient,
  type HistoryStore,
} from '@hookline/history';
import { HookControl, streakReason, type SuspensionStore } from '@hookline/suspension';
import { HookQueues } from '@hookline/redis';
import { Producer } from '@hookline/queue';
import { ReadySet } from '@hookline/scheduler';
import { createStore, PortalLinks, SecretBox, type Store } from '@hookline/store';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { usePostgres, useRedis } from '@hookline/testing';
import { createDeliverer, sentOrError } from '@hookline/delivery';
import { startWorker } from '@hookline/worker';
import { buildWebApp, type WebDeps } from '../../src';

export const PASSWORD = 'correct horse battery';

/**
 * The website on 127.0.0.1:0 with hookline's real parts behind it (store, producer, hook control) on a real
 * Redis under a test-only prefix. Everything is closed after each test.
 */
/**
 * `eventCatalog`: the event kinds, as HOOKLINE_EVENT_CATALOG gives them (call_created alone by default);
 * `tracePropagate`: HOOKLINE_TRACE_PROPAGATE.
 */
export function useWebsite(
  options: {
    readonly eventCatalog?: EventCatalog;
    readonly tracePropagate?: boolean;
    /** More settings, read when each test's website is built (e.g. HOOKLINE_FRAME_ANCESTORS). */
    readonly config?: () => Partial<WebDeps['config']>;
    /**
     * The website reads the history and the audit log through a PostgreSQL that does not answer (nothing
     * listens on its port), as during an outage; `w.history` stays the real one, for the test's own writes.
     */
    readonly historyDown?: boolean;
  } = {},
) {
  const catalog = options.eventCatalog ? { catalog: options.eventCatalog } : {};
  const ctx = useRedis('web');
  const pg = usePostgres('web');
  const w = {
    ctx,
    baseUrl: '',
    keys: undefined as unknown as RedisKeys,
    store: undefined as unknown as Store & SuspensionStore,
    history: undefined as unknown as HistoryStore,
    reader: undefined as unknown as HistoryReader,
    producer: undefined as unknown as Producer,
    hookQueues: undefined as unknown as HookQueues,
    control: undefined as unknown as HookControl,
    audit: undefined as unknown as AuditTrail,
    portalLinks: undefined as unknown as PortalLinks,
    /** Every route of the website, as registered (method, URL pattern). */
    routes: [] as { method: string; url: string }[],
    async account(email: string, name = 'Acme Telecom') {
      return w.store.accounts.create({ name, email, password: PASSWORD });
    },
    async hook(accountId: string, input: Partial<CreateHookInput> & { url: string }) {
      return w.store.hooks.create(
        accountId,
        { format: 'json', auth: { scheme: 'none' }, ...input },
        'operator',
      );
    },
    /** What the monitor does when a hook keeps failing (for 10 minutes): pause its queue and record why. */
    async suspend(hookId: string, failures: number) {
      const at = Date.now();
      const startedAt = at - 10 * 60_000;
      const account = (await w.store.hooks.accountOf(hookId)) ?? '';
      const records = Array.from({ length: failures }, (_, i): AttemptRecord => ({
        attempt_id: newId('att', startedAt + i * 1000),
        trigger: 'auto',
        account_id: account,
        hook_id: hookId,
        event_id: `evt_${(startedAt + i).toString(36)}fail${i}`,
        event_type: 'call_created',
        call_id: `failing-call-${i + 1}`,
        // The event as recorded, so the attempt can be sent again.
        event_fields: { ...SAMPLE_CALL_CREATED.fields, call_id: `failing-call-${i + 1}` },
        outcome: 'failed' as const,
        status_code: 503,
        duration_ms: 120 + i,
        attempted_at: new Date(startedAt + i * 1000).toISOString(),
        error: 'HTTP 503 Service Unavailable',
        response_excerpt: '{"error":"maintenance"}',
      }));
      await w.store.historyOutbox.append(hookId, records);
      const reason = streakReason(failures, startedAt, at, records.at(-1));
      const suspended = await w.control.suspend(hookId, reason, 'monitor', records);
      if (!suspended) throw new Error(`hook ${hookId} was not suspended`);
    },
    /** The real delivery worker on the website's store, closed with the test. */
    runWorker() {
      const worker = startWorker({
        config: {
          HOOKLINE_DELIVERY_TIMEOUT_MS: 15000,
          // The tests' receivers are on loopback, which the network policy blocks unless allowed.
          HOOKLINE_ALLOW_NETWORKS: ['127.0.0.0/8'],
          HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
          HOOKLINE_WORKER_MAX_HOOKS: 16,
        },
        redis: ctx.redis,
        keys: w.keys,
        store: w.store,
        metrics: createMetrics(),
        logger: createLogger('silent', 'test-worker'),
      });
      ctx.onCleanup(() => worker.close());
    },
  };
  beforeEach(async () => {
    w.keys = redisKeys(ctx.prefix);
    w.hookQueues = new HookQueues(ctx.redis, w.keys);
    w.history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
    ctx.onCleanup(() => w.history.close());
    const outbox = new HistoryOutbox(ctx.redis, w.keys);
    const readFrom = options.historyDown
      ? pgClient({ url: 'postgres://hookline@127.0.0.1:1/hookline', schema: 'hookline' })
      : w.history.client;
    if (readFrom !== w.history.client) ctx.onCleanup(() => readFrom.close());
    w.reader = new HistoryReader(readFrom, outbox, (id) => w.store.hooks.listIds(id));
    w.store = {
      ...createStore({
        redis: ctx.redis,
        keys: w.keys,
        secretBox: SecretBox.fromKey(randomBytes(32)),
        hookQueues: w.hookQueues,
        ...catalog,
        // As services.ts wires it: the store refuses the configured event-type header as an extra header.
        eventTypeHeader: options.config?.().HOOKLINE_EVENT_TYPE_HEADER ?? 'X-Service-Event-Type',
      }),
      deliveryLog: new DeliveryLog(outbox, w.reader),
      historyOutbox: outbox,
    };
    w.producer = ctx.closeLater(
      new Producer({ redis: ctx.redis, keys: w.keys, ...catalog, erasureTags: w.store.erasureTags }),
    );
    const ready = new ReadySet(ctx.redis, w.keys);
    // Probes (Test & re-enable) go to the tests' receivers on this machine.
    const deliverer = createDeliverer({ timeoutMs: 2500, allowNetworks: ['127.0.0.0/8'] });
    ctx.onCleanup(() => deliverer.close());
    w.control = new HookControl({
      redis: ctx.redis,
      keys: w.keys,
      hookQueues: w.hookQueues,
      store: w.store,
      holdMax: 10_000,
      signalReady: (hookId) => ready.signal([hookId]),
      probe: {
        attempt: async (request) => sentOrError(await deliverer.attempt(request)),
        eventTypeHeader: 'X-Service-Event-Type',
        // The same User-Agent as the website's preview, from the same brand setting.
        userAgent: deliveryUserAgent(options.config?.().HOOKLINE_BRAND_NAME),
      },
    });
    const auditOutbox = new AuditOutbox(ctx.redis, w.keys);
    w.audit = new AuditTrail(auditOutbox, new AuditReader(readFrom, auditOutbox), () => undefined);
    w.portalLinks = new PortalLinks(ctx.redis, w.keys);
    w.routes = [];
    const onRoute = (r: { method: string | string[]; url: string }) => {
      for (const method of [r.method].flat()) w.routes.push({ method, url: r.url });
    };
    const app = await buildWebApp(
      {
        config: {
          HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
          HOOKLINE_DELIVERY_TIMEOUT_MS: 2500,
          HOOKLINE_SUSPEND_AFTER_FAILURES: 10,
          HOOKLINE_SUSPEND_AFTER_MS: 600_000,
          ...(options.eventCatalog ? { eventCatalog: options.eventCatalog } : {}),
          ...(options.tracePropagate ? { HOOKLINE_TRACE_PROPAGATE: true } : {}),
          ...options.config?.(),
        },
        redis: ctx.redis,
        keys: w.keys,
        store: w.store,
        history: w.reader,
        producer: w.producer,
        control: w.control,
        hookQueues: w.hookQueues,
        audit: w.audit,
        portalLinks: w.portalLinks,
        logger: createLogger('silent', 'test-web'),
      },
      onRoute,
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    ctx.onCleanup(() => app.close());
    w.baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  return w;
}

/** A delivered attempt (200 in 40 ms) of a call_created event for `callId`, made at `at` (ms since the epoch). */
export function deliveredAttempt(
  accountId: string,
  hookId: string,
  at: number,
  callId: string,
): AttemptRecord {
  return {
    attempt_id: newId('att', at),
    trigger: 'auto',
    account_id: accountId,
    hook_id: hookId,
    event_id: newId('evt', at),
    event_type: 'call_created',
    call_id: callId,
    event_fields: { ...SAMPLE_CALL_CREATED.fields, call_id: callId },
    outcome: 'delivered',
    status_code: 200,
    duration_ms: 40,
    attempted_at: new Date(at).toISOString(),
  };
}
