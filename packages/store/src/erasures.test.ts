import { createHash, randomBytes } from 'node:crypto';
import { ErasureTags, layoutOf, parseEventCatalog, type HookView } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import { CALLBACK_CATALOG, useRedis } from '@hookline/testing';
import type { AttemptFence } from './contracts';
import type { Store } from './create-store';
import { holdJob } from './test-support/hold-job';
import { storeForTest } from './test-support/store-for-test';

// The erasure's fence: from the moment an erasure is accepted, the attempt script refuses a matching event
// that has not begun (`erased`), lets others through, and an attempt already begun keeps its own course.
const ctx = useRedis('store-erasures');
let keys: RedisKeys;
let store: Store;
let hook: HookView;
let fence: AttemptFence;
const NUMBER = '+15550100';
const fields = (from: string) => ({ call_id: 'c1', from, to: '+4420' });

beforeEach(async () => {
  ({ store, keys } = storeForTest(ctx));
  const account = await store.accounts.create({ name: 'Acme' });
  hook = await store.hooks.create(account.id, { url: 'https://example.com/in', format: 'json' }, 'test');
  fence = await holdJob(ctx.redis, keys, hook.id);
});

describe('erasure fence and record', () => {
  it('refuses a matching event once accepted, sends the others, and comes down when done', async () => {
    const begun = await store.attempts.begin(
      hook.id,
      'evt_0',
      fence,
      store.erasureTags.ofEvent(fields(NUMBER)),
    );
    expect(begun.kind).toBe('send');
    const view = await store.erasures.request(hook.account_id, { kind: 'number', value: NUMBER }, 'operator');
    expect(view).toMatchObject({ state: 'running', by: 'number', requested_by: 'operator' });
    // The same holder asking again (its first reply lost, so nothing left) is refused too: no request starts.
    expect(
      await store.attempts.begin(hook.id, 'evt_0', fence, store.erasureTags.ofEvent(fields(NUMBER))),
    ).toEqual({
      kind: 'erased',
    });
    expect(
      await store.attempts.begin(hook.id, 'evt_1', fence, store.erasureTags.ofEvent(fields(NUMBER))),
    ).toEqual({
      kind: 'erased',
    });
    expect(
      (await store.attempts.begin(hook.id, 'evt_2', fence, store.erasureTags.ofEvent(fields('+1999')))).kind,
    ).toBe('send');
    // The fence and the running record hold a keyed hash and a sealed text, never the number; nor a tag that
    // could be made without the secret key (hashing every number until one matches).
    const raw = JSON.stringify([
      await ctx.redis.smembers(keys.hookErasing(hook.id)),
      await ctx.redis.hgetall(keys.erasure(hook.account_id, view.id)),
    ]);
    const asked = { kind: 'number', value: NUMBER } as const;
    expect(raw).toContain(store.erasureTags.main(asked));
    expect(raw).not.toContain(NUMBER);
    const unkeyed = createHash('sha256')
      .update(`hookline-erasure:n:${NUMBER}`)
      .digest('base64url')
      .slice(0, 22);
    expect(raw).not.toContain(unkeyed);
    expect(raw).not.toContain(ErasureTags.fromSecretKey(randomBytes(32)).main(asked).slice(2));

    const work = await store.erasures.work(hook.account_id, view.id);
    expect(work?.target).toEqual({ kind: 'number', value: NUMBER });
    await store.erasures.finish(hook.account_id, view.id, work!.target, { ...work!.view.counts, history: 2 });
    expect(
      (await store.attempts.begin(hook.id, 'evt_3', fence, store.erasureTags.ofEvent(fields(NUMBER)))).kind,
    ).toBe('send');
    expect(await store.erasures.get(hook.account_id, view.id)).toMatchObject({
      state: 'done',
      counts: { history: 2 },
    });
    expect(await ctx.redis.hget(keys.erasure(hook.account_id, view.id), 'target_sealed')).toBeNull();
    expect(await store.erasures.running()).toEqual([]);
  });

  it('shows `done` and its activity entry together, never one without the other', async () => {
    // A reader taking atomic snapshots while erasures finish: the page and the API read both (product.md §18).
    const acct = hook.account_id;
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1)
      ids.push((await store.erasures.request(acct, { kind: 'call_id', value: `c${i}` }, 'operator')).id);
    const reader = ctx.redis.duplicate();
    const torn = new Set<string>();
    let finishing = true;
    const watch = (async () => {
      while (finishing) {
        const tx = reader.multi().lrange(keys.accountActivity(acct), 0, -1);
        for (const id of ids) tx.hget(keys.erasure(acct, id), 'state');
        const [list, ...states] = (await tx.exec())! as [unknown, unknown][];
        const activity = (list![1] as string[]).join('\n');
        ids.forEach((id, i) => {
          const done = states[i]![1] === 'done';
          if (done !== activity.includes(`erasure ${id} done:`)) torn.add(id);
        });
      }
    })();
    for (const id of ids) {
      const work = (await store.erasures.work(acct, id))!;
      await store.erasures.finish(acct, id, work.target, work.view.counts);
    }
    finishing = false;
    await watch;
    reader.disconnect();
    expect([...torn]).toEqual([]);
  });

  it('keeps the fence up while a second erasure of the same number runs, though the first is done', async () => {
    const asked = { kind: 'number', value: NUMBER } as const;
    const first = await store.erasures.request(hook.account_id, asked, 'operator');
    const second = await store.erasures.request(hook.account_id, asked, 'operator');
    const finish = async (id: string) => {
      const work = (await store.erasures.work(hook.account_id, id))!;
      await store.erasures.finish(hook.account_id, id, work.target, work.view.counts);
    };
    const begin = (eventId: string) =>
      store.attempts.begin(hook.id, eventId, fence, store.erasureTags.ofEvent(fields(NUMBER)));
    await finish(first.id);
    expect((await begin('evt_f1')).kind).toBe('erased');
    await finish(second.id);
    expect((await begin('evt_f2')).kind).toBe('send');
    // Nothing of either fence is left on the hook.
    expect(await ctx.redis.exists(keys.hookErasing(hook.id), keys.hookErasingCounts(hook.id))).toBe(0);
    // A fence taken down without its counts (by a process of the version before them): the next erasure's
    // fence comes down with that erasure, not a week later.
    const third = await store.erasures.request(hook.account_id, asked, 'operator');
    await ctx.redis.srem(keys.hookErasing(hook.id), ...store.erasures.tagsOf(asked));
    await ctx.redis.hset(keys.erasure(hook.account_id, third.id), 'state', 'done');
    const fourth = await store.erasures.request(hook.account_id, asked, 'operator');
    expect((await begin('evt_f3')).kind).toBe('erased');
    await finish(fourth.id);
    expect((await begin('evt_f4')).kind).toBe('send');
  });

  it('refuses an event of a catalogue kind whose personal field is the number, and not one where another field is', async () => {
    const parsed = parseEventCatalog(CALLBACK_CATALOG);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    const kind = parsed.catalog.get('callback_requested')!;
    ({ store, keys } = storeForTest(ctx, { catalog: parsed.catalog }));
    const account = await store.accounts.create({ name: 'Callbacks' });
    hook = await store.hooks.create(account.id, { url: 'https://example.com/cb', format: 'json' }, 'test');
    fence = await holdJob(ctx.redis, keys, hook.id);
    // As the worker does: the event carries its kind's layout, and it tags each text field.
    const tags = (callback: string, note: string) =>
      store.erasureTags.ofEvent({ callback, note }, { type: kind.name, layout: layoutOf(kind) });
    const view = await store.erasures.request(hook.account_id, { kind: 'number', value: NUMBER }, 'operator');
    expect((await store.attempts.begin(hook.id, 'evt_p1', fence, tags(NUMBER, 'x'))).kind).toBe('erased');
    // The number in a field the catalogue does not mark is not personal data: the event is sent.
    expect((await store.attempts.begin(hook.id, 'evt_p2', fence, tags('+1999', NUMBER))).kind).toBe('send');
    const work = await store.erasures.work(hook.account_id, view.id);
    expect(work?.target).toEqual({
      kind: 'number',
      value: NUMBER,
      personal: { callback_requested: ['callback'] },
    });
    await store.erasures.finish(hook.account_id, view.id, work!.target, work!.view.counts);
    expect(await ctx.redis.exists(keys.hookErasing(hook.id))).toBe(0);
  });

  it("computes an event's tags only while an erasure runs on the hook", async () => {
    const computed: string[] = [];
    const tagsOf = (from: string) => () => {
      computed.push(from);
      return store.erasureTags.ofEvent(fields(from));
    };
    expect((await store.attempts.begin(hook.id, 'evt_0', fence, tagsOf(NUMBER))).kind).toBe('send');
    expect(computed).toEqual([]);
    await store.erasures.request(hook.account_id, { kind: 'number', value: NUMBER }, 'operator');
    expect(await store.attempts.begin(hook.id, 'evt_1', fence, tagsOf(NUMBER))).toEqual({ kind: 'erased' });
    expect((await store.attempts.begin(hook.id, 'evt_2', fence, tagsOf('+1999'))).kind).toBe('send');
    expect(computed).toEqual([NUMBER, '+1999']);
  });
});
