import { randomBytes } from 'node:crypto';
import { HooklineError } from '@hookline/core';
import { redisKeys, type RedisKeys } from '@hookline/redis';
import { HookQueues } from '@hookline/redis';
import { keysMatching, useRedis } from '@hookline/testing';
import type { AccountView } from './contracts';
import { createStore, type Store } from './create-store';
import { SecretBox } from './secret-box';

const ctx = useRedis('store-hooksec');
let keys: RedisKeys;
let queues: HookQueues;
let secretBox: SecretBox;
let store: Store;
let owner: AccountView;
let stranger: AccountView;

const TOKEN = 'sk_live_51HqLyjWDarjtT1zdp7dc';
const PASSWORD = 'correct-horse-battery-staple';

beforeEach(async () => {
  keys = redisKeys(ctx.prefix);
  queues = new HookQueues(ctx.redis, keys);
  secretBox = SecretBox.fromKey(randomBytes(32));
  store = createStore({ redis: ctx.redis, keys, secretBox, hookQueues: queues });
  owner = await store.accounts.create({ name: 'Owner' });
  stranger = await store.accounts.create({ name: 'Stranger' });
});

const bearerHook = (accountId = owner.id) =>
  store.hooks.create(
    accountId,
    { url: 'https://a.example.com/', format: 'json', auth: { scheme: 'bearer', token: TOKEN } },
    'operator',
  );

describe('hook credentials', () => {
  it('are stored encrypted, shown masked, and decrypted only for the worker', async () => {
    const bearer = await bearerHook();
    const basic = await store.hooks.create(
      owner.id,
      {
        url: 'https://b.example.com/',
        format: 'form',
        auth: { scheme: 'basic', username: 'svc', password: PASSWORD },
      },
      'operator',
    );
    const raw = JSON.stringify([
      await ctx.redis.hgetall(keys.hookRecord(bearer.id)),
      await ctx.redis.hgetall(keys.hookRecord(basic.id)),
    ]);
    expect(raw).not.toContain(TOKEN);
    expect(raw).not.toContain(PASSWORD);
    expect(raw).toContain('"auth_sealed":"v1.');

    const views = JSON.stringify([
      await store.hooks.get(owner.id, bearer.id),
      await store.hooks.list(owner.id),
      await store.hooks.update(owner.id, basic.id, { description: 'x' }, 'operator'),
    ]);
    expect(views).not.toContain(TOKEN);
    expect(views).not.toContain(PASSWORD);
    expect(bearer.auth).toEqual({ scheme: 'bearer', token_last4: 'p7dc' });
    expect(basic.auth).toEqual({ scheme: 'basic', username: 'svc', password_last4: 'aple' });

    expect((await store.hooks.target(bearer.id))?.auth).toEqual({ scheme: 'bearer', token: TOKEN });
    expect((await store.hooks.target(basic.id))?.auth).toEqual({
      scheme: 'basic',
      username: 'svc',
      password: PASSWORD,
    });
  });

  it("copied into another hook's record do not open there", async () => {
    const victim = await bearerHook();
    const thief = await store.hooks.create(
      owner.id,
      { url: 'https://evil.example.com/', format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    const sealed = await ctx.redis.hget(keys.hookRecord(victim.id), 'auth_sealed');
    await ctx.redis.hset(keys.hookRecord(thief.id), 'auth_sealed', sealed!);
    const error = await store.hooks.target(thief.id).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).not.toContain(TOKEN);
  });

  it('never appear in validation errors', async () => {
    const error = await store.hooks
      .create(
        owner.id,
        {
          url: 'ftp://a.example.com/',
          format: 'json',
          auth: { scheme: 'bearer', token: `${TOKEN}\r\nX: y` },
        },
        'operator',
      )
      .catch((e: unknown) => e as HooklineError);
    expect(error).toBeInstanceOf(HooklineError);
    expect((error as HooklineError).code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify((error as HooklineError).toBody())).not.toContain(TOKEN);
    expect(await ctx.redis.scard(keys.allHooks())).toBe(0);
  });
});

describe("another account's hook", () => {
  it('is invisible: get, list, update, remove and suspension answer as if it did not exist', async () => {
    const hook = await bearerHook();
    await expect(store.hooks.get(stranger.id, hook.id)).resolves.toBeUndefined();
    await expect(store.hooks.list(stranger.id)).resolves.toEqual([]);
    await expect(store.hooks.suspension(stranger.id, hook.id)).resolves.toBeUndefined();
    await expect(
      store.hooks.update(stranger.id, hook.id, { url: 'https://evil.example.com/' }, 'x'),
    ).resolves.toBeUndefined();
    await expect(store.hooks.remove(stranger.id, hook.id, 'x')).resolves.toBe(false);
    expect(await store.hooks.get(owner.id, hook.id)).toEqual(hook);
    expect(await store.hooks.target(hook.id)).toMatchObject({ url: 'https://a.example.com/', version: 1 });
    expect(await store.activity.list(stranger.id, 10)).toEqual([]);
  });

  it('cannot be reached through ids that are not ours', async () => {
    const hook = await bearerHook();
    for (const id of ['', 'hk_', `${hook.id}}:x`, 'hk_{x}', '../hk_1', owner.id])
      await expect(store.hooks.get(owner.id, id)).resolves.toBeUndefined();
    await expect(store.hooks.listIds('acct_x}:hooks')).resolves.toEqual([]);
    await expect(store.hooks.target('hk_nope}')).resolves.toBeUndefined();
  });

  it('cannot be created under an account that does not exist', async () => {
    const error = await bearerHook('acct_00000000000000000000').catch((e: unknown) => e as HooklineError);
    expect((error as HooklineError).code).toBe('NOT_FOUND');
    expect(await ctx.redis.scard(keys.allHooks())).toBe(0);
  });
});

describe('creating a hook is all or none', () => {
  it('takes back the queue and the record when writing the hook fails half-way', async () => {
    // A key of the wrong type makes one command of the MULTI fail while the others apply.
    await ctx.redis.set(keys.allHooks(), 'not a set');
    await expect(bearerHook()).rejects.toThrow(/WRONGTYPE/);
    expect(await ctx.redis.smembers(keys.accountHooks(owner.id))).toEqual([]);
    expect(await keysMatching(ctx.redis, `${ctx.prefix}*hk_*`)).toEqual([]);
  });
});
