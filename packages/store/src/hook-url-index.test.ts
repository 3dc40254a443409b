import type { RedisKeys } from '@hookline/redis';
import { useRedis, watchCommands } from '@hookline/testing';
import type { AccountView } from './contracts';
import type { Store } from './create-store';
import { HookUrlIndex, urlContains } from './hook-url-index';
import { storeForTest } from './test-support/store-for-test';

// The admin area's search by endpoint URL (Hooks.findByUrl) over the index of URLs the store keeps beside the
// hooks' records, on a real Redis.

const ctx = useRedis('store-hook-urls');
let store: Store;
let keys: RedisKeys;
let acme: AccountView;
let globex: AccountView;

beforeEach(async () => {
  ({ store, keys } = storeForTest(ctx));
  acme = await store.accounts.create({ name: 'Acme' });
  globex = await store.accounts.create({ name: 'Globex' });
});

const hookAt = (account: AccountView, url: string) =>
  store.hooks.create(account.id, { url, format: 'json', auth: { scheme: 'none' } }, 'operator');

/** What a search finds, as `<account name>: <url>`. */
async function found(text: string, limit = 50): Promise<string[]> {
  const names = new Map([
    [acme.id, 'Acme'],
    [globex.id, 'Globex'],
  ]);
  const { hooks } = await store.hooks.findByUrl(text, limit);
  return hooks.map((hook) => `${names.get(hook.account_id)}: ${hook.url}`);
}

describe('finding hooks by endpoint URL', () => {
  it('finds every account’s hooks whose URL contains the text: the host in any case, the path as typed', async () => {
    await hookAt(acme, 'https://crm.example.com/hooks/Calls?token=abc');
    await hookAt(globex, 'https://CRM.Example.COM:8443/in');
    await hookAt(globex, 'https://billing.example.org/crm');

    expect(await found('crm.example.com')).toEqual([
      'Acme: https://crm.example.com/hooks/Calls?token=abc',
      'Globex: https://crm.example.com:8443/in',
    ]);
    expect(await found('HTTPS://CRM.EXAMPLE.com/hooks/Calls')).toEqual([
      'Acme: https://crm.example.com/hooks/Calls?token=abc',
    ]);
    // After the host, case counts: paths and queries are case-sensitive.
    expect(await found('/hooks/calls')).toEqual([]);
    expect(await found('COM/hooks/C')).toEqual(['Acme: https://crm.example.com/hooks/Calls?token=abc']);
    expect(await found('crm')).toHaveLength(3);
    expect(await found('example.net')).toEqual([]);
  });

  it('follows a hook’s URL when it changes, and forgets the hook when it is deleted', async () => {
    const hook = await hookAt(acme, 'https://old.example.com/in');
    await store.hooks.update(acme.id, hook.id, { url: 'https://new.example.com/in' }, 'operator');
    expect(await found('old.example')).toEqual([]);
    expect(await found('new.example')).toEqual(['Acme: https://new.example.com/in']);
    // A change of something else leaves it as it is.
    await store.hooks.update(acme.id, hook.id, { description: 'CRM' }, 'operator');
    expect(await found('new.example')).toEqual(['Acme: https://new.example.com/in']);

    await store.hooks.remove(acme.id, hook.id, 'operator');
    expect(await found('example')).toEqual([]);
    expect(await ctx.redis.hlen(keys.hookUrls())).toBe(0);
  });

  it('never takes an older URL back when a change’s step lands after a later change’s', async () => {
    const hook = await hookAt(acme, 'https://first.example.com/in');
    await store.hooks.update(acme.id, hook.id, { url: 'https://second.example.com/in' }, 'operator');
    await store.hooks.update(acme.id, hook.id, { url: 'https://third.example.com/in' }, 'operator');
    // The index step of the change to "second" (version 2), late: the record is at version 3 now.
    await new HookUrlIndex(ctx.redis, keys).set([
      { hookId: hook.id, version: 2, url: 'https://second.example.com/in' },
    ]);
    expect(await found('third.example')).toEqual(['Acme: https://third.example.com/in']);
    expect(await found('second.example')).toEqual([]);
  });

  it('lists at most the limit and says there are more', async () => {
    for (const n of [1, 2, 3, 4, 5]) await hookAt(acme, `https://crm.example.com/hook/${n}`);
    const three = await store.hooks.findByUrl('crm.example', 3);
    expect([three.hooks.length, three.more]).toEqual([3, true]);
    const five = await store.hooks.findByUrl('crm.example', 5);
    expect([five.hooks.length, five.more]).toEqual([5, false]);
    expect((await store.hooks.findByUrl('  ', 5)).hooks).toEqual([]);
  });

  it('reads the records of the hooks that match only, however many hooks there are', async () => {
    const others: string[] = [];
    for (let n = 0; n < 40; n++)
      others.push((await hookAt(n % 2 ? acme : globex, `https://h${n}.example.com/in`)).id);
    const wanted = await hookAt(globex, 'https://needle.example.com/in');
    const read = new Set<string>();
    const watch = await watchCommands(ctx.redis, ([command, key]) => {
      if (command?.toLowerCase() !== 'hgetall' || !key?.startsWith(`${ctx.prefix}:`)) return;
      const hookId = /\{(hk_[0-9a-f]+)\}:hook$/.exec(key)?.[1];
      if (hookId) read.add(hookId);
    });
    ctx.onCleanup(() => watch.stop());
    expect(await found('needle')).toEqual(['Globex: https://needle.example.com/in']);
    // MONITOR's lines arrive after the replies: a command sent after the search marks the end of them.
    const marker = others[0]!;
    await ctx.redis.hgetall(keys.hookRecord(marker));
    await new Promise<void>((resolve) => {
      const wait = setInterval(() => read.has(marker) && (clearInterval(wait), resolve()), 10);
    });
    read.delete(marker);
    expect([...read]).toEqual([wanted.id]);
  });
});

describe('hooks made before the index (an upgrade)', () => {
  it('are added by indexUrls, and the search says it is not complete until then', async () => {
    const a = await hookAt(acme, 'https://crm.example.com/a');
    const b = await hookAt(globex, 'https://crm.example.com/b');
    const gone = await hookAt(globex, 'https://billing.example.org/gone');
    await store.hooks.remove(globex.id, gone.id, 'operator');
    // As a deployment of the previous version leaves it: no index, and a record without a version.
    await ctx.redis.del(keys.hookUrls(), keys.hookUrlsBuilt());
    await ctx.redis.hdel(keys.hookRecord(b.id), 'version');
    // And an entry a change that raced a delete left behind.
    await new HookUrlIndex(ctx.redis, keys).set([
      { hookId: gone.id, version: 1, url: 'https://billing.example.org/gone' },
    ]);
    expect(await store.hooks.findByUrl('crm.example', 50)).toEqual({
      hooks: [],
      more: false,
      complete: false,
    });

    await store.hooks.indexUrls();
    const search = await store.hooks.findByUrl('crm.example', 50);
    expect([search.hooks.map((h) => h.id), search.complete]).toEqual([[a.id, b.id], true]);
    expect(await ctx.redis.hlen(keys.hookUrls())).toBe(2);
    // The record without a version still follows its first change.
    await store.hooks.update(globex.id, b.id, { url: 'https://billing.example.com/b' }, 'operator');
    expect(await found('billing')).toEqual(['Globex: https://billing.example.com/b']);
    // Done once: a second run finds nothing to do, and changes nothing.
    await store.hooks.indexUrls();
    expect(await found('example.com')).toHaveLength(2);
  });

  it('drops, when a search meets it, an entry of a hook that is gone', async () => {
    await store.hooks.indexUrls();
    const gone = await hookAt(acme, 'https://crm.example.com/gone');
    await store.hooks.remove(acme.id, gone.id, 'operator');
    await new HookUrlIndex(ctx.redis, keys).set([
      { hookId: gone.id, version: 1, url: 'https://crm.example.com/gone' },
    ]);
    expect(await found('crm')).toEqual([]);
    expect(await ctx.redis.hlen(keys.hookUrls())).toBe(0);
  });
});

describe('urlContains', () => {
  it('compares the scheme and host in any case and the rest exactly', () => {
    const url = 'https://crm.example.com/Hooks?Token=X';
    expect(urlContains(url, 'CRM.EXAMPLE.COM/Hooks')).toBe(true);
    expect(urlContains(url, 'crm.example.com/hooks')).toBe(false);
    expect(urlContains(url, 'token=x')).toBe(false);
    expect(urlContains(url, 'Token=X')).toBe(true);
    // A later occurrence can match where the first does not.
    expect(urlContains('https://a.example.com/A/a', '/a')).toBe(true);
    expect(urlContains(url, '')).toBe(false);
  });
});
