import { randomBytes } from 'node:crypto';
import { redisKeys, type RedisKeys } from '@hookline/redis';
import { newId, type AttemptRecord, type HookView, type RecordedOutcome } from '@hookline/core';
import { DeliveryLog, HistoryReader, openHistory, type HistoryStore } from '@hookline/history';
import { HistoryOutbox, HookQueues } from '@hookline/redis';
import { appendOutcome, MONITOR_GROUP } from '@hookline/queue';
import { createStore, SecretBox, type Store, type StoreDeps } from '@hookline/store';
import { createLogger, createMetrics, type Metrics } from '@hookline/telemetry';
import type { SuspensionStore } from '@hookline/suspension';
import { usePostgres, useRedis, waitUntil } from '@hookline/testing';
import { startMonitor, type MonitorDeps, type RunningMonitor } from '../src';

/**
 * A store, a hook and monitors on a real Redis under a test-only prefix; outcomes are fed by hand. With a
 * `suspensionRule`, the store's outcome script applies it, as a worker process's does (for tests that run one).
 */
export function useMonitorHarness(options: Pick<StoreDeps, 'suspensionRule'> = {}) {
  const ctx = useRedis('monitor');
  const pg = usePostgres('monitor');
  const h = {
    ctx,
    keys: undefined as unknown as RedisKeys,
    store: undefined as unknown as Store & SuspensionStore,
    history: undefined as unknown as HistoryStore,
    hookQueues: undefined as unknown as HookQueues,
    metrics: undefined as unknown as Metrics,
    hook: undefined as unknown as HookView,
    eventCount: 0,

    start(config: MonitorDeps['config'], extra: Partial<MonitorDeps> = {}): RunningMonitor {
      const monitor = startMonitor({
        redis: ctx.redis,
        keys: h.keys,
        store: h.store,
        history: h.history,
        logger: createLogger('silent', 'test-monitor'),
        metrics: h.metrics,
        config,
        blockMs: 100,
        ...extra,
      });
      ctx.onCleanup(() => monitor.close());
      return monitor;
    },

    /** What a worker does after an attempt: a delivery log line, then an outcome stream entry. */
    async outcome(outcome: RecordedOutcome, at = Date.now(), statusCode?: number): Promise<string> {
      const eventId = `evt_${String((h.eventCount += 1)).padStart(12, '0')}`;
      const record: AttemptRecord = {
        attempt_id: newId('att', at),
        trigger: 'auto',
        account_id: h.hook.account_id,
        hook_id: h.hook.id,
        event_id: eventId,
        event_type: 'call_created',
        outcome,
        duration_ms: 5,
        attempted_at: new Date(at).toISOString(),
        ...(statusCode !== undefined ? { status_code: statusCode } : {}),
      };
      await h.store.historyOutbox.append(h.hook.id, [record]);
      const id = await appendOutcome(ctx.redis, h.keys, {
        hookId: h.hook.id,
        accountId: h.hook.account_id,
        eventId,
        outcome,
        at,
        ...(statusCode !== undefined ? { statusCode } : {}),
      });
      return id!;
    },

    async failures(count: number, at = Date.now()): Promise<void> {
      for (let i = 0; i < count; i += 1) await h.outcome('failed', at + i, 500);
    },

    /** Resolves once every entry in the stream has been read by a monitor and acknowledged. */
    async consumed(): Promise<void> {
      await waitUntil(async () => {
        const last = await ctx.redis.xrevrange(h.keys.outcomes(), '+', '-', 'COUNT', 1);
        const groups = (await ctx.redis.xinfo('GROUPS', h.keys.outcomes()).catch(() => [])) as unknown[][];
        const group = groups.map(toRecord).find((g) => g.name === MONITOR_GROUP);
        return group && group.pending === 0 && group['last-delivered-id'] === last[0]?.[0];
      }, 'the monitors to consume every outcome');
    },

    isPaused: () => h.hookQueues.isPaused(h.hook.id),
    /**
     * Resolves with the hook once it is suspended and the suspension is recorded: the reason on the hook, then
     * the account's activity entry (recordSuspension writes them in that order, one write after the other, so
     * a test that read the feed as soon as the reason was there could find it still without the entry).
     */
    async suspended() {
      return waitUntil(async () => {
        const view = await h.view();
        if (view?.state !== 'suspended' || view.suspended_reason === undefined) return undefined;
        return (await h.activityOf('hook.suspended')).length > 0 ? view : undefined;
      }, 'the hook to be suspended with a reason and an activity entry');
    },
    view: () => h.store.hooks.get(h.hook.account_id, h.hook.id),
    async activityOf(kind: string) {
      return (await h.store.activity.list(h.hook.account_id, 100)).filter((e) => e.kind === kind);
    },
  };

  beforeEach(async () => {
    h.keys = redisKeys(ctx.prefix);
    h.hookQueues = new HookQueues(ctx.redis, h.keys);
    h.metrics = createMetrics();
    h.history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
    ctx.onCleanup(() => h.history.close());
    const outbox = new HistoryOutbox(ctx.redis, h.keys);
    h.store = {
      ...createStore({
        redis: ctx.redis,
        keys: h.keys,
        secretBox: SecretBox.fromKey(randomBytes(32)),
        hookQueues: h.hookQueues,
        ...options,
      }),
      deliveryLog: new DeliveryLog(
        outbox,
        new HistoryReader(h.history.client, outbox, (id) => h.store.hooks.listIds(id)),
      ),
      historyOutbox: outbox,
    };
    const account = await h.store.accounts.create({ name: 'Acme Telecom' });
    h.hook = await h.store.hooks.create(
      account.id,
      { url: 'https://crm.example.com/hook', format: 'json', auth: { scheme: 'none' }, description: 'CRM' },
      'operator',
    );
  });
  return h;
}

function toRecord(flat: unknown[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) record[String(flat[i])] = flat[i + 1];
  return record;
}
