import { randomBytes } from 'node:crypto';
import { HooklineError } from '@hookline/core';
import { redisKeys } from '@hookline/redis';
import { HookQueues } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { createStore, type Store } from './create-store';
import { SecretBox } from './secret-box';

const ctx = useRedis('store-acct');
let store: Store;

beforeEach(() => {
  const keys = redisKeys(ctx.prefix);
  store = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues: new HookQueues(ctx.redis, keys),
    clock: () => new Date('2024-05-01T10:00:00.000Z'),
  });
});

async function rejection(promise: Promise<unknown>): Promise<HooklineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HooklineError);
  return error as HooklineError;
}

describe('accounts', () => {
  it('creates an account and reads it back, without the password hash', async () => {
    const created = await store.accounts.create({
      name: 'Acme Telephony',
      email: ' Ops@Acme.Example ',
      password: 'a long enough password',
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^acct_[0-9a-f]{20}$/),
      name: 'Acme Telephony',
      email: 'ops@acme.example',
      created_at: '2024-05-01T10:00:00.000Z',
    });
    expect(await store.accounts.get(created.id)).toEqual(created);
    const raw = await ctx.redis.hgetall(redisKeys(ctx.prefix).accountRecord(created.id));
    expect(raw.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(JSON.stringify(raw)).not.toContain('a long enough password');
  });

  it('allows accounts with neither email nor password', async () => {
    const a = await store.accounts.create({ name: 'Producer A' });
    const b = await store.accounts.create({ name: 'Producer B' });
    expect(a.id).not.toBe(b.id);
    expect(await store.accounts.get(b.id)).toEqual({
      id: b.id,
      name: 'Producer B',
      created_at: b.created_at,
    });
  });

  it('refuses a second account with the same email in any letter case', async () => {
    await store.accounts.create({ name: 'First', email: 'owner@example.com' });
    const error = await rejection(store.accounts.create({ name: 'Second', email: 'OWNER@example.com' }));
    expect(error.code).toBe('CONFLICT');
    expect(error.status).toBe(409);
    expect(error.message).toBe('An account with this email already exists');
  });

  it('lets exactly one of several simultaneous sign-ups with one email through', async () => {
    const results = await Promise.allSettled(
      ['One', 'Two', 'Three'].map((name) => store.accounts.create({ name, email: 'race@example.com' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const winner = results.find((r) => r.status === 'fulfilled')!.value;
    await expect(store.accounts.verifyPassword('race@example.com', 'whatever')).resolves.toBeUndefined();
    expect(await ctx.redis.hget(redisKeys(ctx.prefix).accountByEmail(), 'race@example.com')).toBe(winner.id);
  });

  it('rejects garbage with every bad field named, and stores nothing', async () => {
    const error = await rejection(
      store.accounts.create({ name: '  ', email: 'not-an-email', password: 'short' }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details?.map((d) => d.field)).toEqual(['name', 'email', 'password']);
    expect((await rejection(store.accounts.create({ name: 'x'.repeat(201) }))).code).toBe(
      'VALIDATION_FAILED',
    );
    const [, keys] = await ctx.redis.scan('0', 'MATCH', `${ctx.prefix}:*`, 'COUNT', 1000);
    expect(keys).toEqual([]);
  });

  it('answers undefined for unknown and malformed ids', async () => {
    await expect(store.accounts.get('acct_00000000000000000000')).resolves.toBeUndefined();
    await expect(store.accounts.get('acct_x}:account')).resolves.toBeUndefined();
    await expect(store.accounts.get('')).resolves.toBeUndefined();
  });
});

describe('passwords of accounts', () => {
  it('signs in with the right password and any letter case of the email', async () => {
    const account = await store.accounts.create({
      name: 'A',
      email: 'a@example.com',
      password: 'right password 1',
    });
    await expect(store.accounts.verifyPassword('A@Example.com', 'right password 1')).resolves.toEqual(
      account,
    );
    await expect(store.accounts.verifyPassword('a@example.com', 'wrong password 1')).resolves.toBeUndefined();
    await expect(
      store.accounts.verifyPassword('nobody@example.com', 'right password 1'),
    ).resolves.toBeUndefined();
  });

  it('finds an account id by its email, in any letter case; none for an email nobody signed up with', async () => {
    const account = await store.accounts.create({
      name: 'D',
      email: 'd@example.com',
      password: 'pw pw pw 1',
    });
    await expect(store.accounts.idByEmail('D@Example.COM')).resolves.toBe(account.id);
    await expect(store.accounts.idByEmail('nobody@example.com')).resolves.toBeUndefined();
  });

  it('never signs in to an account that has no password', async () => {
    await store.accounts.create({ name: 'B', email: 'b@example.com' });
    await expect(store.accounts.verifyPassword('b@example.com', '')).resolves.toBeUndefined();
  });

  it('changes the password only when the current one is right', async () => {
    const account = await store.accounts.create({
      name: 'C',
      email: 'c@example.com',
      password: 'first password',
    });
    await expect(
      store.accounts.changePassword(account.id, 'not the password', 'second password'),
    ).resolves.toBe(false);
    await expect(store.accounts.verifyPassword('c@example.com', 'first password')).resolves.toEqual(account);

    await expect(
      store.accounts.changePassword(account.id, 'first password', 'second password'),
    ).resolves.toBe(true);
    await expect(store.accounts.verifyPassword('c@example.com', 'first password')).resolves.toBeUndefined();
    await expect(store.accounts.verifyPassword('c@example.com', 'second password')).resolves.toEqual(account);
    expect(await store.activity.list(account.id, 10)).toEqual([
      { kind: 'account.password_changed', at: '2024-05-01T10:00:00.000Z', actor: `customer:${account.id}` },
    ]);
  });

  it('refuses a too-short new password and unknown accounts', async () => {
    const account = await store.accounts.create({
      name: 'D',
      email: 'd@example.com',
      password: 'first password',
    });
    const error = await rejection(store.accounts.changePassword(account.id, 'first password', 'short'));
    expect(error.code).toBe('VALIDATION_FAILED');
    await expect(store.accounts.verifyPassword('d@example.com', 'first password')).resolves.toEqual(account);
    await expect(
      store.accounts.changePassword('acct_00000000000000000000', 'first password', 'second password'),
    ).resolves.toBe(false);
  });
});
