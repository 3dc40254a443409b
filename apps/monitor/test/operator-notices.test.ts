import { Webhook } from 'standardwebhooks';
import { formatEventTimestamp } from '@hookline/core';
import { Producer } from '@hookline/queue';
import { announce, NOTICE_GROUP, type Notice } from '@hookline/suspension';
import { createLogger, createMetrics } from '@hookline/telemetry';
import { startReceiver, waitUntil, type ReceivedRequest } from '@hookline/testing';
import { startWorker } from '@hookline/worker';
import { useMonitorHarness } from './harness';

// The operator's notices (product.md §11): signed JSON webhooks, delivered by hookline's own pipeline (a hook of
// an internal account, its queue, one attempt each) and verified here with the `standardwebhooks` library.

// The workers here apply the second test's rule in their outcome scripts, as a worker process does; the first
// test's notices are all delivered, so it never comes into play there.
const h = useMonitorHarness({ suspensionRule: { threshold: 2, windowMs: 0 } });
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

function verified(request: ReceivedRequest): Record<string, string> {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  return new Webhook(SECRET).verify(request.body.toString('utf8'), headers) as Record<string, string>;
}

/** A worker delivering the notices. */
function startNoticeWorker() {
  const worker = startWorker({
    config: {
      HOOKLINE_DELIVERY_TIMEOUT_MS: 5000,
      HOOKLINE_ALLOW_NETWORKS: ['127.0.0.0/8'],
      HOOKLINE_EVENT_TYPE_HEADER: 'X-Service-Event-Type',
      HOOKLINE_WORKER_MAX_HOOKS: 16,
    },
    redis: h.ctx.redis,
    keys: h.keys,
    store: h.store,
    metrics: createMetrics(),
    logger: createLogger('silent', 'operator-worker'),
  });
  h.ctx.onCleanup(() => worker.close());
}

describe("the operator's notices", () => {
  it('are signed webhooks, one per transition with two monitors, with the account, hook, state, reason and failures', async () => {
    const receiver = h.ctx.closeLater(await startReceiver());
    const producer = h.ctx.closeLater(
      new Producer({ redis: h.ctx.redis, keys: h.keys, erasureTags: h.store.erasureTags }),
    );
    startNoticeWorker();
    const notices = {
      notices: {
        accounts: h.store.accounts,
        operator: { url: receiver.url('/ops'), secret: SECRET, producer },
      },
    };
    const config = { HOOKLINE_SUSPEND_AFTER_FAILURES: 4, HOOKLINE_SUSPEND_AFTER_MS: 300 };
    h.start(config, notices);
    h.start(config, notices);

    const t = Date.now();
    await h.failures(2, t);
    await receiver.waitFor(1);
    const failing = verified(receiver.requests[0]!);
    expect(failing).toMatchObject({
      EventType: 'hook.failing',
      account_id: h.hook.account_id,
      hook_id: h.hook.id,
      url: 'https://crm.example.com/hook',
      state: 'active',
      failures: 2,
    });
    expect(failing.reason).toMatch(/^2 consecutive failures .*; the last: the endpoint answered 500$/);
    expect(failing.last_failures!.split('\n')).toHaveLength(2);
    expect(receiver.requests[0]!.headers['x-service-event-type']).toBe('hook.failing');

    await h.failures(3, t + 10);
    await h.suspended();
    await receiver.waitFor(2);
    const suspended = verified(receiver.requests[1]!);
    expect(suspended).toMatchObject({ EventType: 'hook.suspended', hook_id: h.hook.id, state: 'suspended' });
    expect(suspended.last_failures!.split('\n')).toHaveLength(3);
    expect(suspended.last_failures!.split('\n')[2]).toMatch(/^\d{4}-\d{2}-\d{2}T.* failed 500$/);

    // Once each, though two monitors read the notices; a tampered body fails verification.
    await h.consumed();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.requests.map((r) => r.headers['x-service-event-type'])).toEqual([
      'hook.failing',
      'hook.suspended',
    ]);
    const tampered = {
      ...receiver.requests[1]!,
      body: Buffer.from(receiver.requests[1]!.body.toString().replace('suspended', 'active')),
    };
    expect(() => verified(tampered)).toThrow();
    await waitUntil(async () => (await h.ctx.redis.get(h.keys.operatorHook())) !== null, 'the operator hook');
  });

  it('keep coming through an operator endpoint that failed for longer than the suspension rule: that hook is never suspended', async () => {
    let down = true;
    const receiver = h.ctx.closeLater(
      await startReceiver(() => (down ? { kind: 'status', status: 500 } : { kind: 'status', status: 200 })),
    );
    const producer = h.ctx.closeLater(
      new Producer({ redis: h.ctx.redis, keys: h.keys, erasureTags: h.store.erasureTags }),
    );
    const config = { HOOKLINE_SUSPEND_AFTER_FAILURES: 2, HOOKLINE_SUSPEND_AFTER_MS: 0 };
    startNoticeWorker();
    h.start(config, {
      notices: {
        accounts: h.store.accounts,
        operator: { url: receiver.url('/ops'), secret: SECRET, producer },
      },
    });

    // The customer's hook fails: its failing and suspended notices both meet the operator's 500s.
    await h.failures(2);
    await h.suspended();
    await receiver.waitFor(2);
    await h.consumed();
    const [opAccount, opHook] = (await h.ctx.redis.get(h.keys.operatorHook()))!.split(' ') as [
      string,
      string,
    ];
    await waitUntil(
      async () => (await h.store.deliveryLog.list(opHook, 10)).length === 2,
      'both failed notices to be recorded',
    );
    await h.consumed();
    expect((await h.store.hooks.get(opAccount, opHook))?.state).toBe('active');
    expect(await h.hookQueues.isPaused(opHook)).toBe(false);

    // The endpoint is back: the next notice arrives, not held behind the failures.
    down = false;
    const second = await h.store.hooks.create(
      h.hook.account_id,
      { url: 'https://billing.example.com/hook', format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    h.hook = second;
    await h.failures(1);
    await receiver.waitFor(3);
    expect(verified(receiver.requests[2]!)).toMatchObject({ EventType: 'hook.failing', hook_id: second.id });
    // None of them was about the notices hook itself (its own failing is logged, not sent to itself).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.requests.map((r) => verified(r).hook_id)).not.toContain(opHook);
    expect(receiver.requests).toHaveLength(3);
  });

  it('are dated when the hook changed, and those made long before the notifier started are not sent', async () => {
    const receiver = h.ctx.closeLater(await startReceiver());
    const producer = h.ctx.closeLater(
      new Producer({ redis: h.ctx.redis, keys: h.keys, erasureTags: h.store.erasureTags }),
    );
    startNoticeWorker();
    // Written while no monitor sent notices (they were off): a suspension 20 minutes ago, then a re-enable
    // 3 minutes ago, just before the notices were turned on.
    const notice = (kind: Notice['kind'], minutesAgo: number): Notice => ({
      kind,
      accountId: h.hook.account_id,
      hookId: h.hook.id,
      at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      reason: 'the reason',
      actor: 'operator',
      failures: [],
    });
    const old = notice('hook.suspended', 20);
    const recent = notice('hook.enabled', 3);
    await announce(h.ctx.redis, h.keys, old);
    await announce(h.ctx.redis, h.keys, recent);
    h.start(
      { HOOKLINE_SUSPEND_AFTER_FAILURES: 4, HOOKLINE_SUSPEND_AFTER_MS: 300 },
      {
        notices: {
          accounts: h.store.accounts,
          operator: { url: receiver.url('/ops'), secret: SECRET, producer },
        },
      },
    );

    await receiver.waitFor(1);
    expect(verified(receiver.requests[0]!)).toMatchObject({
      EventType: 'hook.enabled',
      date: formatEventTimestamp(new Date(recent.at)),
    });
    // Both read and acknowledged by the notifier, which sent nothing more.
    await waitUntil(async () => {
      const [last] = await h.ctx.redis.xrevrange(h.keys.notices(), '+', '-', 'COUNT', 1);
      const groups = (await h.ctx.redis.xinfo('GROUPS', h.keys.notices())) as unknown[][];
      // XINFO GROUPS answers name, consumers, pending, last-delivered-id … as a flat list.
      return groups.some((g) => g[1] === NOTICE_GROUP && g[5] === 0 && g[7] === last?.[0]);
    }, 'both notices to be read and acknowledged');
    expect(receiver.requests).toHaveLength(1);
  });
});
