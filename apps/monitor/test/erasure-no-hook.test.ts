import type { Producer } from '@hookline/queue';
import type { RedisKeys } from '@hookline/redis';
import { startReceiver, usePostgres, useRedis } from '@hookline/testing';
import { erasingMonitor, erasureDone, redisText } from './erasure-support';
import { openPipeline, type Pipeline } from './pipeline';

jest.setTimeout(60000);

// An event that no hook gets (none subscribes to its kind, or every filter leaves it out) is in no queue and no
// record: its idempotency key is all Redis keeps of it, for 24 h, and that key's name is often the call's id.
// An erasure of its call or number removes that key too (product.md §18: Redis keeps nothing of them).

const ctx = useRedis('erasure-no-hook');
const pg = usePostgres('erasure_no_hook');
const NUMBER = '+15550100777';
let keys: RedisKeys;
let store: Pipeline['store'];
let producer: Producer;
let accountId: string;

beforeEach(async () => {
  const p = await openPipeline(ctx, pg);
  ({ keys, store, producer } = p);
  const receiver = ctx.closeLater(await startReceiver(() => ({ kind: 'status', status: 200 })));
  accountId = (await store.accounts.create({ name: 'Acme Telecom' })).id;
  // The account's only hook wants outbound calls: the inbound ones below go to no hook.
  await store.hooks.create(
    accountId,
    { url: receiver.url('/a'), format: 'json', auth: { scheme: 'none' }, filter: { direction: 'outbound' } },
    'operator',
  );
  p.run({ deliveryTimeoutMs: 5000, monitor: erasingMonitor(store.erasures) });
});

// Published under the call's own id, as producers often do.
const inbound = (callId: string, from: string) => ({
  type: 'call_created',
  id: callId,
  data: { call_id: callId, direction: 'inbound', from, from_cnam: 'Someone', to: '+4420', rate: '0.0' },
});

const outbound = (callId: string) => ({
  type: 'call_created',
  data: {
    call_id: callId,
    direction: 'outbound',
    from: '+4420',
    from_cnam: 'Acme',
    to: '+4421',
    rate: '0.0',
  },
});

describe('erasure of an event no hook got', () => {
  it.each([
    ['number', NUMBER],
    ['call_id', 'CALL-NOHOOK-ERASED'],
  ] as const)('removes its idempotency key when erased by %s, and keeps the others', async (kind, value) => {
    expect((await producer.publish(accountId, inbound('CALL-NOHOOK-ERASED', NUMBER))).hooks).toEqual([]);
    expect((await producer.publish(accountId, inbound('CALL-NOHOOK-KEPT', '+16660001'))).hooks).toEqual([]);

    const { id } = await store.erasures.request(accountId, { kind, value }, 'operator');
    const done = await erasureDone(store.erasures, accountId, id);
    expect(done.counts.idempotency).toBe(1);

    const dump = await redisText(ctx.redis, ctx.prefix);
    expect(dump).not.toContain('CALL-NOHOOK-ERASED');
    expect(dump).not.toContain(NUMBER);
    expect(await ctx.redis.exists(keys.accountIdempotency(accountId, 'CALL-NOHOOK-KEPT'))).toBe(1);
    // The other event's key still answers a retry with its first answer.
    expect((await producer.publish(accountId, inbound('CALL-NOHOOK-KEPT', '+16660001'))).duplicate).toBe(
      true,
    );
  });

  it("removes it when the kind's last event went to a hook (the publish expected one, and none got it)", async () => {
    expect((await producer.publish(accountId, outbound('CALL-OUT-1'))).hooks).toHaveLength(1);
    expect((await producer.publish(accountId, inbound('CALL-AFTER-OUT', NUMBER))).hooks).toEqual([]);

    const { id } = await store.erasures.request(accountId, { kind: 'number', value: NUMBER }, 'operator');
    const done = await erasureDone(store.erasures, accountId, id);
    expect(done.counts.idempotency).toBe(1);
    expect(await ctx.redis.exists(keys.accountIdempotency(accountId, 'CALL-AFTER-OUT'))).toBe(0);
    expect(await redisText(ctx.redis, ctx.prefix)).not.toContain(NUMBER);
  });
});
