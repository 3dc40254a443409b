import { randomBytes } from 'node:crypto';
import { HooklineError, PREVIOUS_SECRET_GRACE_MS, type HookWithSecret } from '@hookline/core';
import { HookQueues, redisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import type { AccountView } from './contracts';
import { createStore, type Store } from './create-store';
import { SecretBox } from './secret-box';

const ctx = useRedis('store-signing');
let store: Store;
let account: AccountView;
let now: number;

beforeEach(async () => {
  const keys = redisKeys(ctx.prefix);
  now = Date.parse('2026-03-01T10:00:00.000Z');
  store = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues: new HookQueues(ctx.redis, keys),
    clock: () => new Date(now),
  });
  account = await store.accounts.create({ name: 'Acme' });
});

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const create = (signing?: boolean) =>
  store.hooks.create(
    account.id,
    { url: 'https://example.com/in', format: 'json', ...(signing === undefined ? {} : { signing }) },
    'operator',
  );

describe('signing secrets', () => {
  it('are made at creation when asked, returned once, and never shown again', async () => {
    const hook = await create(true);
    expect(hook.signing_secret).toMatch(SECRET);
    expect(hook.signing).toBe(true);
    const read = (await store.hooks.get(account.id, hook.id)) as HookWithSecret;
    expect(read.signing).toBe(true);
    expect(read).not.toHaveProperty('signing_secret');
    expect(JSON.stringify(await store.hooks.list(account.id))).not.toContain(hook.signing_secret);
    // At rest only sealed: the raw hash never holds the secret.
    const raw = await ctx.redis.hgetall(redisKeys(ctx.prefix).hookRecord(hook.id));
    expect(JSON.stringify(raw)).not.toContain(hook.signing_secret!.slice(6));
    expect((await store.hooks.target(hook.id))?.signing).toEqual({ current: hook.signing_secret });
  });

  it('are off unless asked for', async () => {
    const hook = await create();
    expect(hook).not.toHaveProperty('signing_secret');
    expect(hook.signing).toBe(false);
    expect(await store.hooks.target(hook.id)).not.toHaveProperty('signing');
  });

  it('turn on with an update (secret returned then), and off again', async () => {
    const hook = await create(false);
    const on = await store.hooks.update(account.id, hook.id, { signing: true }, 'operator');
    expect(on?.signing_secret).toMatch(SECRET);
    // Asking again while it signs changes nothing: only rotation makes a new secret.
    const again = await store.hooks.update(account.id, hook.id, { signing: true }, 'operator');
    expect(again).not.toHaveProperty('signing_secret');
    expect((await store.hooks.target(hook.id))?.signing?.current).toBe(on?.signing_secret);
    const off = await store.hooks.update(account.id, hook.id, { signing: false }, 'operator');
    expect(off?.signing).toBe(false);
    expect(await store.hooks.target(hook.id)).not.toHaveProperty('signing');
  });

  it('rotate to a new secret; the old one signs beside it for 24 hours', async () => {
    const hook = await create(true);
    const rotated = await store.hooks.rotateSigningSecret(account.id, hook.id, 'operator');
    expect(rotated?.signing_secret).toMatch(SECRET);
    expect(rotated?.signing_secret).not.toBe(hook.signing_secret);
    const until = now + PREVIOUS_SECRET_GRACE_MS;
    expect(rotated?.signing_previous_expires_at).toBe(new Date(until).toISOString());
    expect((await store.hooks.target(hook.id))?.signing).toEqual({
      current: rotated?.signing_secret,
      previous: { secret: hook.signing_secret, until },
    });
    now = until;
    expect(await store.hooks.get(account.id, hook.id)).not.toHaveProperty('signing_previous_expires_at');
  });

  // Each rotation keeps one previous secret: of two written at once, the first one's secret was dropped by the
  // second, though its caller was given it. Every secret answered must be one that signs.
  it('rotate one at a time: a rotation that raced another is refused, and every secret answered signs', async () => {
    const hook = await create(true);
    const answers = await Promise.allSettled(
      Array.from({ length: 6 }, () => store.hooks.rotateSigningSecret(account.id, hook.id, 'operator')),
    );
    const given = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value?.signing_secret] : []));
    const refused = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason as HooklineError] : []));
    expect(given.length).toBeGreaterThanOrEqual(1);
    expect(given.length + refused.length).toBe(6);
    for (const error of refused) expect(error.code).toBe('CONFLICT');
    const signing = (await store.hooks.target(hook.id))?.signing;
    const signs = [signing?.current, signing?.previous?.secret];
    for (const secret of given) expect(signs).toContain(secret);
  });

  it('cannot be rotated on a hook that does not sign, nor on another account', async () => {
    const hook = await create(false);
    await expect(store.hooks.rotateSigningSecret(account.id, hook.id, 'operator')).rejects.toThrow(
      HooklineError,
    );
    const other = await store.accounts.create({ name: 'Other' });
    const signing = await create(true);
    expect(await store.hooks.rotateSigningSecret(other.id, signing.id, 'operator')).toBeUndefined();
    expect((await store.hooks.target(signing.id))?.signing).toEqual({ current: signing.signing_secret });
  });
});
