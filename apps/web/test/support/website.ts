import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { redisKeys, type RedisKeys } from '@hookline/redis';
import { type CreateHookInput, type EventCatalog } from '@hookline/core';
import { HookControl, streakReason } from '@hookline/suspension';
import { HookQueues } from '@hookline/redis';
import { Producer, ReadySet } from '@hookline/queue';
import { createStore, SecretBox, type Store } from '@hookline/store';
import { createLogger } from '@hookline/telemetry';
import { useRedis } from '@hookline/testing';
import { buildWebApp } from '../../src';

export const PASSWORD = 'correct horse battery';

/**
 * The website on 127.0.0.1:0 with hookline's real parts behind it (store, producer, hook control) on a real
 * Redis under a test-only prefix. Everything is closed after each test.
 */
/** `eventCatalog`: the event kinds, as HOOKLINE_EVENT_CATALOG gives them (call_created alone by default). */
export function useWebsite(options: { readonly eventCatalog?: EventCatalog } = {}) {
  const catalog = options.eventCatalog ? { catalog: options.eventCatalog } : {};
  const ctx = useRedis('web');
  const w = {
    ctx,
    baseUrl: '',
    keys: undefined as unknown as RedisKeys,
    store: undefined as unknown as Store,
    producer: undefined as unknown as Producer,
    hookQueues: undefined as unknown as HookQueues,
    control: undefined as unknown as HookControl,
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
      const records = Array.from({ length: failures }, (_, i) => ({
        event_id: `evt_${(startedAt + i).toString(36)}fail${i}`,
        event_type: 'call_created',
        outcome: 'failed' as const,
        status_code: 503,
        duration_ms: 120 + i,
        attempted_at: new Date(startedAt + i * 1000).toISOString(),
        error: 'HTTP 503 Service Unavailable',
        response_excerpt: '{"error":"maintenance"}',
      }));
      for (const record of records) await w.store.deliveryLog.append(hookId, record);
      const reason = streakReason(failures, startedAt, at, records.at(-1));
      const suspended = await w.control.suspend(hookId, reason, 'monitor', records);
      if (!suspended) throw new Error(`hook ${hookId} was not suspended`);
    },
  };
  beforeEach(async () => {
    w.keys = redisKeys(ctx.prefix);
    w.hookQueues = new HookQueues(ctx.redis, w.keys);
    w.store = createStore({
      redis: ctx.redis,
      keys: w.keys,
      secretBox: SecretBox.fromKey(randomBytes(32)),
      hookQueues: w.hookQueues,
      ...catalog,
    });
    w.producer = ctx.closeLater(new Producer({ redis: ctx.redis, keys: w.keys, ...catalog }));
    const ready = new ReadySet(ctx.redis, w.keys);
    w.control = new HookControl({
      redis: ctx.redis,
      keys: w.keys,
      hookQueues: w.hookQueues,
      store: w.store,
      signalReady: (hookId) => ready.signal([hookId]),
    });
    const app = await buildWebApp({
      config: {
        HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
        HOOKLINE_DELIVERY_TIMEOUT_MS: 2500,
        ...(options.eventCatalog ? { eventCatalog: options.eventCatalog } : {}),
      },
      redis: ctx.redis,
      keys: w.keys,
      store: w.store,
      producer: w.producer,
      control: w.control,
      hookQueues: w.hookQueues,
      logger: createLogger('silent', 'test-web'),
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    ctx.onCleanup(() => app.close());
    w.baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  return w;
}
