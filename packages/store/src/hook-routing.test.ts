import { randomBytes } from 'node:crypto';
import { HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import type { AccountView } from './contracts';
import { createStore, type Store } from './create-store';
import { HookRouting } from './hook-routing';
import { SecretBox } from './secret-box';

// Two changes of one hook write their records in version order, then each its subscription and filter in a
// second round trip, which can land in either order. The older one's must not land over the newer one's: the
// hook would route by settings no answer showed, beside the newer change's record.

const ctx = useRedis('store-routing');
let keys: RedisKeys;
let store: Store;
let account: AccountView;

beforeEach(async () => {
  keys = redisKeys(ctx.prefix);
  const hookQueues = new HookQueues(ctx.redis, keys);
  store = createStore({ redis: ctx.redis, keys, hookQueues, secretBox: SecretBox.fromKey(randomBytes(32)) });
  account = await store.accounts.create({ name: 'Acme' });
});

describe("a change's subscription and filter", () => {
  it("land only over an older change's, each on its own", async () => {
    const hook = await store.hooks.create(
      account.id,
      { url: 'https://example.com/in', format: 'json' },
      'operator',
    );
    const newer = await store.hooks.update(
      account.id,
      hook.id,
      { events: ['call_created'], filter: { call_id: 'c-1' } },
      'operator',
    );
    const version = (await store.hooks.version(account.id, hook.id))!;
    const routing = new HookRouting(ctx.redis, keys);

    // An older change's write, late: nothing of it lands.
    expect(
      await routing.setForChange(account.id, hook.id, version - 1, { events: 'all', filter: null }),
    ).toBe(true);
    expect(await store.hooks.get(account.id, hook.id)).toMatchObject({
      events: ['call_created'],
      filter: { call_id: 'c-1' },
    });
    expect(newer).toMatchObject({ events: ['call_created'], filter: { call_id: 'c-1' } });

    // A later change of the filter alone lands, and the subscription it did not give stays.
    await routing.setForChange(account.id, hook.id, version + 1, { filter: { call_id: 'c-2' } });
    // The subscription was last written at `version`: a change of that version or later may write it.
    await routing.setForChange(account.id, hook.id, version, { events: 'all' });
    expect(await store.hooks.get(account.id, hook.id)).toMatchObject({
      events: 'all',
      filter: { call_id: 'c-2' },
    });

    // Deleting the hook takes its versions with it.
    await store.hooks.remove(account.id, hook.id, 'operator');
    expect(await ctx.redis.hlen(keys.accountHookRoutingVersions(account.id))).toBe(0);
  });

  it('are not written for a hook that left its account (deleted meanwhile)', async () => {
    const hook = await store.hooks.create(
      account.id,
      { url: 'https://example.com/in', format: 'json' },
      'operator',
    );
    await store.hooks.remove(account.id, hook.id, 'operator');
    const routing = new HookRouting(ctx.redis, keys);
    expect(await routing.setForChange(account.id, hook.id, 2, { events: ['call_created'] })).toBe(false);
    expect(await ctx.redis.hget(keys.accountHookEvents(account.id), hook.id)).toBeNull();
  });
});
