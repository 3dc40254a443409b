import { randomBytes } from 'node:crypto';
import { hookQueueLayout, redisKeys, type RedisKeys } from '@hookline/redis';
import { HookQueues } from '@hookline/redis';
import { keysMatching, useRedis } from '@hookline/testing';
import type { AccountView } from './contracts';
import { createStore, type Store } from './create-store';
import { SecretBox } from './secret-box';

const ctx = useRedis('store-hooks');
let store: Store;
let queues: HookQueues;
let keys: RedisKeys;
let account: AccountView;
let tick: number;

beforeEach(async () => {
  keys = redisKeys(ctx.prefix);
  queues = new HookQueues(ctx.redis, keys);
  tick = Date.parse('2024-05-01T10:00:00.000Z');
  // Each reading of the clock is one second later, so creation order shows in created_at.
  const clock = () => new Date((tick += 1000));
  store = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues: queues,
    clock,
  });
  account = await store.accounts.create({ name: 'Acme' });
});

const BEARER = { scheme: 'bearer', token: 'sk_live_51HqLyjWDarjtT1zdp7dc' } as const;

describe('hooks', () => {
  it('creates a hook and reads it back, alone and in the list', async () => {
    const hook = await store.hooks.create(
      account.id,
      { url: 'https://www.example.com/webhook', format: 'json', auth: BEARER, description: 'CRM' },
      'operator',
    );
    expect(hook).toEqual({
      id: expect.stringMatching(/^hk_[0-9a-f]{20}$/),
      account_id: account.id,
      url: 'https://www.example.com/webhook',
      format: 'json',
      auth: { scheme: 'bearer', token_last4: 'p7dc' },
      description: 'CRM',
      state: 'active',
      created_at: '2024-05-01T10:00:02.000Z',
      updated_at: '2024-05-01T10:00:02.000Z',
      insecure_credentials: false,
      health: 'healthy',
      events: 'all',
      signing: false,
    });
    expect(await store.hooks.get(account.id, hook.id)).toEqual(hook);
    expect(await store.hooks.list(account.id)).toEqual([hook]);
    expect(await store.hooks.listIds(account.id)).toEqual([hook.id]);
    expect(await ctx.redis.sismember(keys.allHooks(), hook.id)).toBe(1);
  });

  it('tells which account a hook belongs to, for processes that know only the hook', async () => {
    const hook = await store.hooks.create(
      account.id,
      { url: 'https://www.example.com/webhook', format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    expect(await store.hooks.accountOf(hook.id)).toBe(account.id);
    await store.hooks.remove(account.id, hook.id, 'operator');
    expect(await store.hooks.accountOf(hook.id)).toBeUndefined();
    expect(await store.hooks.accountOf('not-a-hook')).toBeUndefined();
  });

  it("lists an account's hooks oldest first", async () => {
    const created = [];
    for (const n of [1, 2, 3, 4, 5])
      created.push(
        await store.hooks.create(
          account.id,
          { url: `https://h${n}.example.com/`, format: 'form', auth: { scheme: 'none' } },
          'operator',
        ),
      );
    const listed = await store.hooks.list(account.id);
    expect(listed.map((h) => h.url)).toEqual(created.map((h) => h.url));
    expect(await store.hooks.list((await store.accounts.create({ name: 'Empty' })).id)).toEqual([]);
  });

  it('gives each hook its own queue with concurrency 1 across all workers', async () => {
    const hook = await store.hooks.create(
      account.id,
      { url: 'https://a.example.com/', format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    expect(await ctx.redis.hget(hookQueueLayout(keys, hook.id).meta, 'concurrency')).toBe('1');
  });

  it('shows the state of the hook queue: paused means suspended', async () => {
    const hook = await store.hooks.create(
      account.id,
      { url: 'https://a.example.com/', format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    const failure = {
      attempt_id: 'att_1',
      trigger: 'auto',
      event_id: 'evt_1',
      event_type: 'call_created',
      outcome: 'failed',
      status_code: 500,
      duration_ms: 12,
      attempted_at: '2024-05-01T09:00:00.000Z',
    } as const;
    await store.hooks.recordSuspension(hook.id, {
      at: '2024-05-01T10:30:00.000Z',
      reason: '10 failures in a row',
      failures: [failure],
    });
    // The recorded reason alone does not suspend: the queue's paused flag decides.
    expect((await store.hooks.get(account.id, hook.id))?.state).toBe('active');

    await queues.pause(hook.id);
    expect(await store.hooks.get(account.id, hook.id)).toMatchObject({
      state: 'suspended',
      suspended_at: '2024-05-01T10:30:00.000Z',
      suspended_reason: '10 failures in a row',
    });
    expect((await store.hooks.list(account.id)).map((h) => h.state)).toEqual(['suspended']);
    expect(await store.hooks.suspension(account.id, hook.id)).toEqual({
      at: '2024-05-01T10:30:00.000Z',
      reason: '10 failures in a row',
      failures: [failure],
    });

    await queues.resume(hook.id);
    const resumed = await store.hooks.get(account.id, hook.id);
    expect(resumed?.state).toBe('active');
    expect(resumed).not.toHaveProperty('suspended_at');
    await store.hooks.clearSuspension(hook.id);
    expect(await store.hooks.suspension(account.id, hook.id)).toBeUndefined();
  });

  it('updates only the given fields, bumping version and updated_at', async () => {
    const hook = await store.hooks.create(
      account.id,
      { url: 'https://a.example.com/', format: 'json', auth: BEARER, description: 'old' },
      'operator',
    );
    expect((await store.hooks.target(hook.id))?.version).toBe(1);

    const described = await store.hooks.update(
      account.id,
      hook.id,
      { description: 'new' },
      `customer:${account.id}`,
    );
    expect(described).toEqual({ ...hook, description: 'new', updated_at: '2024-05-01T10:00:03.000Z' });
    expect(await store.hooks.target(hook.id)).toMatchObject({
      version: 2,
      auth: BEARER,
      url: 'https://a.example.com/',
    });

    const moved = await store.hooks.update(
      account.id,
      hook.id,
      {
        url: 'http://b.example.com/in',
        format: 'form',
        auth: { scheme: 'basic', username: 'svc', password: 'hunter2-hunter2' },
        description: null,
      },
      'operator',
    );
    expect(moved).toMatchObject({
      url: 'http://b.example.com/in',
      format: 'form',
      auth: { scheme: 'basic', username: 'svc', password_last4: 'ter2' },
      insecure_credentials: true,
      created_at: hook.created_at,
    });
    expect(moved).not.toHaveProperty('description');
    expect(await store.hooks.target(hook.id)).toEqual({
      id: hook.id,
      accountId: account.id,
      url: 'http://b.example.com/in',
      format: 'form',
      auth: { scheme: 'basic', username: 'svc', password: 'hunter2-hunter2' },
      version: 3,
    });
  });

  it('warns about credentials on plain http only when there are credentials', async () => {
    const create = (url: string, auth: Parameters<Store['hooks']['create']>[1]['auth']) =>
      store.hooks.create(account.id, { url, format: 'json', auth }, 'operator');
    expect((await create('http://a.example.com/', BEARER)).insecure_credentials).toBe(true);
    expect((await create('HTTP://a.example.com/', BEARER)).insecure_credentials).toBe(true);
    expect((await create('http://a.example.com/', { scheme: 'none' })).insecure_credentials).toBe(false);
    expect((await create('https://a.example.com/', BEARER)).insecure_credentials).toBe(false);
  });

  it('removes a hook with its queue, jobs, delivery log and index entries', async () => {
    const hook = await store.hooks.create(
      account.id,
      { url: 'https://a.example.com/', format: 'json', auth: BEARER },
      'operator',
    );
    const keep = await store.hooks.create(
      account.id,
      { url: 'https://b.example.com/', format: 'json', auth: BEARER },
      'operator',
    );
    const queue = ctx.closeLater(queues.open(hook.id));
    await queue.add('deliver.v1', { eventId: 'evt_1' });
    // A record of an attempt made before the delete, not yet moved to the history database.
    await ctx.redis.rpush(keys.hookHistoryOutbox(hook.id), '{"attempt_id":"att_0"}');

    expect((await keysMatching(ctx.redis, `${ctx.prefix}*${hook.id}*`)).length).toBeGreaterThan(3);

    await expect(store.hooks.remove(account.id, hook.id, 'operator')).resolves.toBe(true);

    expect(await store.hooks.get(account.id, hook.id)).toBeUndefined();
    expect(await store.hooks.target(hook.id)).toBeUndefined();
    expect(await store.hooks.listIds(account.id)).toEqual([keep.id]);
    expect(await ctx.redis.sismember(keys.allHooks(), hook.id)).toBe(0);
    // Every key of the hook is gone but its outbox, which the history writer still empties.
    expect(await keysMatching(ctx.redis, `${ctx.prefix}*${hook.id}*`)).toEqual([
      keys.hookHistoryOutbox(hook.id),
    ]);
    expect(await ctx.redis.exists(hookQueueLayout(keys, keep.id).meta)).toBe(1);
    await expect(store.hooks.remove(account.id, hook.id, 'operator')).resolves.toBe(false);
  });

  it('writes who created, changed and deleted hooks to the activity feed, newest first', async () => {
    const hook = await store.hooks.create(
      account.id,
      { url: 'https://a.example.com/', format: 'json', auth: BEARER },
      'operator',
    );
    await store.hooks.update(
      account.id,
      hook.id,
      { url: 'https://a.example.com/?token=secret', auth: { scheme: 'none' } },
      `customer:${account.id}`,
    );
    await store.hooks.remove(account.id, hook.id, 'admin:ops');
    const feed = await store.activity.list(account.id, 10);
    expect(feed.map((e) => [e.kind, e.hook_id, e.actor])).toEqual([
      ['hook.deleted', hook.id, 'admin:ops'],
      ['hook.updated', hook.id, `customer:${account.id}`],
      ['hook.created', hook.id, 'operator'],
    ]);
    expect(feed[1]?.detail).toBe('auth, url');
    expect(JSON.stringify(feed)).not.toContain('secret');
  });

  it('names in the feed only the fields a change changes, and a change of nothing is no entry', async () => {
    const account = await store.accounts.create({ name: 'Acme' });
    const hook = await store.hooks.create(
      account.id,
      { url: 'https://a.example.com/', format: 'json', auth: { scheme: 'none' }, description: 'CRM' },
      'operator',
    );
    const same = { url: hook.url, format: 'json' as const, description: 'CRM', filter: null, tls: null };
    await store.hooks.update(account.id, hook.id, same, 'operator');
    await store.hooks.update(account.id, hook.id, { ...same, format: 'form' }, 'operator');
    const feed = await store.activity.list(account.id, 10);
    expect(feed.map((e) => [e.kind, e.detail ?? ''])).toEqual([
      ['hook.updated', 'format'],
      ['hook.created', expect.any(String)],
    ]);
  });
});

describe('an update made for a version (a form opened on it)', () => {
  it('writes while the hook is at that version, and refuses with CONFLICT, writing nothing, once it is not', async () => {
    const hook = await store.hooks.create(
      account.id,
      {
        url: 'https://www.example.com/webhook',
        format: 'json',
        auth: { scheme: 'none' },
        description: 'CRM',
      },
      'operator',
    );
    const opened = await store.hooks.version(account.id, hook.id);
    expect(opened).toBe(1);
    await store.hooks.update(account.id, hook.id, { description: 'CRM (API)' }, 'operator');
    await expect(
      store.hooks.update(account.id, hook.id, { format: 'form' }, 'customer', { ifVersion: opened }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(store.hooks.get(account.id, hook.id)).resolves.toMatchObject({
      format: 'json',
      description: 'CRM (API)',
    });
    const now = await store.hooks.version(account.id, hook.id);
    expect(now).toBe(2);
    await expect(
      store.hooks.update(account.id, hook.id, { format: 'form' }, 'customer', { ifVersion: now }),
    ).resolves.toMatchObject({ format: 'form', description: 'CRM (API)' });
    await expect(store.hooks.version(account.id, 'hk_00000000000000000000')).resolves.toBeUndefined();
  });
});
