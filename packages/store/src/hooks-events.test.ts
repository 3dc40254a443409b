import { randomBytes } from 'node:crypto';
import { HooklineError, parseEventCatalog } from '@hookline/core';
import { HookQueues, redisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import type { AccountView } from './contracts';
import { createStore, type Store } from './create-store';
import { SecretBox } from './secret-box';

const ctx = useRedis('store-events');
let store: Store;
let account: AccountView;

const parsed = parseEventCatalog('{"kinds":[{"name":"call_ended","fields":[]}]}');
if (!parsed.ok) throw new Error('catalogue');

beforeEach(async () => {
  const keys = redisKeys(ctx.prefix);
  store = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues: new HookQueues(ctx.redis, keys),
    catalog: parsed.catalog,
  });
  account = await store.accounts.create({ name: 'Acme' });
});

const create = (events?: unknown) =>
  store.hooks.create(
    account.id,
    { url: 'https://example.com/in', format: 'json', ...(events === undefined ? {} : { events }) } as never,
    'operator',
  );

async function problems(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HooklineError);
  return (error as HooklineError).details;
}

describe('subscriptions', () => {
  it('default to every kind, stored as "all" rather than as the kinds of today', async () => {
    const hook = await create();
    expect(hook.events).toBe('all');
    const stored = await ctx.redis.hget(redisKeys(ctx.prefix).accountHookEvents(account.id), hook.id);
    expect(stored).toBe('*');
  });

  it('keep the listed kinds, once each, in the order given', async () => {
    const hook = await create(['call_ended', 'call_created', 'call_ended']);
    expect(hook.events).toEqual(['call_ended', 'call_created']);
    expect((await store.hooks.list(account.id))[0]?.events).toEqual(['call_ended', 'call_created']);
    const updated = await store.hooks.update(account.id, hook.id, { events: 'all' }, 'operator');
    expect(updated?.events).toBe('all');
  });

  it('refuse unknown kinds, operator notice kinds and empty lists, naming the field', async () => {
    expect(await problems(create(['call_created', 'call_deleted']))).toEqual([
      {
        field: 'events.1',
        message: 'is not an event kind a hook can subscribe to; the kinds are call_created, call_ended',
      },
    ]);
    expect((await problems(create(['hook.suspended'])))?.[0]?.field).toBe('events.0');
    expect(await problems(create([]))).toEqual([
      { field: 'events', message: 'events must list at least one kind, or be "all"' },
    ]);
    expect((await problems(create('every')))?.[0]?.field).toBe('events');
    expect(await store.hooks.list(account.id)).toEqual([]);
  });

  it('leave nothing behind when the hook is deleted', async () => {
    const hook = await create(['call_ended']);
    await store.hooks.remove(account.id, hook.id, 'operator');
    expect(await ctx.redis.hlen(redisKeys(ctx.prefix).accountHookEvents(account.id))).toBe(0);
    expect(await store.hooks.update(account.id, hook.id, { events: 'all' }, 'operator')).toBeUndefined();
    expect(await ctx.redis.hlen(redisKeys(ctx.prefix).accountHookEvents(account.id))).toBe(0);
  });
});
