import type { AttemptRecord } from '@hookline/core';
import { openHistory } from '@hookline/history';
import { hookQueueLayout, type RedisKeys } from '@hookline/redis';
import { Producer } from '@hookline/queue';
import type { Store } from '@hookline/store';
import { createLogger } from '@hookline/telemetry';
import { usePostgres, useRedis, waitUntil } from '@hookline/testing';
import { startErasureRunner, STEPS } from '../src/erasures/erasure-runner';
import { eraseQueued, type StepDeps } from '../src/erasures/erasure-steps';
import { erasureStepsFor, redisText } from './erasure-support';

// The active job of a worker that died with it: no waiting-list window sees it, and no worker empties it
// until one takes the hook over — after the erasure is done, that one would send the erased event. The
// erasure's queue step removes it once its holder is gone (recorded as a stub), and leaves a live holder's
// job to the fence, taking it at the next pass if that holder has died meanwhile.

const ctx = useRedis('erasure-active');
const NUMBER = '+15550100555';
let keys: RedisKeys;
let store: Store;
let deps: StepDeps;

beforeEach(() => {
  ({ keys, store, deps } = erasureStepsFor(ctx));
});

/** What a worker's taking leaves: the job moved to the active list, its attempt marked, and a lock if alive. */
async function takeJob(hookId: string, { begun, alive }: { begun: boolean; alive: boolean }) {
  const layout = hookQueueLayout(keys, hookId);
  const jobId = await ctx.redis.lmove(layout.wait, layout.active, 'RIGHT', 'LEFT');
  if (!jobId) throw new Error('no job to take');
  if (begun) await ctx.redis.set(keys.hookAttempt(hookId), `${jobId} token-of-the-worker`);
  if (alive) await ctx.redis.set(layout.jobLock(jobId), 'token-of-the-worker', 'PX', 60_000);
  return { jobId, layout };
}

const outboxOf = async (hookId: string) =>
  (await ctx.redis.lrange(keys.hookHistoryOutbox(hookId), 0, -1)).map((r) => JSON.parse(r) as AttemptRecord);

describe("an erasure and a hook's active job", () => {
  it("removes the job of a holder that is gone, and a live holder's job once that holder is gone too", async () => {
    const account = await store.accounts.create({ name: 'Acme Telecom' });
    const hook = (path: string) =>
      store.hooks.create(account.id, { url: `http://127.0.0.1:9${path}`, format: 'json' }, 'operator');
    const [dead, live] = [await hook('/dead'), await hook('/live')];
    const producer = ctx.closeLater(new Producer({ redis: ctx.redis, keys, erasureTags: store.erasureTags }));
    const event = await producer.publish(account.id, {
      type: 'call_created',
      data: { call_id: 'a1', direction: 'inbound', from: NUMBER, from_cnam: 'Ada', to: '+4420', rate: '0.0' },
    });
    await producer.close(); // its inbox entry, deleted just after the answer, is gone before the steps run
    // On `dead`, the worker began the attempt (the request may have left) and died; on `live` it holds the job.
    const onDead = await takeJob(dead.id, { begun: true, alive: false });
    const onLive = await takeJob(live.id, { begun: false, alive: true });

    const target = { kind: 'number', value: NUMBER } as const;
    const { id } = await store.erasures.request(account.id, target, 'operator');
    const input = { accountId: account.id, erasureId: id, target };
    const first = await eraseQueued(deps, input);
    expect(first).toMatchObject({ place: 'queued', count: 1, eventIds: [event.id] });
    expect(await ctx.redis.llen(onDead.layout.active)).toBe(0);
    expect(await ctx.redis.exists(onDead.layout.jobPrefix + onDead.jobId)).toBe(0);
    // It may have reached the endpoint: `unknown`, as a stub. Its attempt is done: no worker takes it up again.
    expect(await outboxOf(dead.id)).toEqual([
      expect.objectContaining({ event_id: event.id, outcome: 'unknown', erased_at: expect.any(String) }),
    ]);
    expect(await ctx.redis.get(keys.hookAttempt(dead.id))).toBe(`${onDead.jobId}:done`);
    // The live holder keeps its job: the fence refuses its request.
    expect(await ctx.redis.lrange(onLive.layout.active, 0, -1)).toEqual([onLive.jobId]);

    // The live holder dies before it records anything; the second pass takes its job.
    await ctx.redis.del(onLive.layout.jobLock(onLive.jobId));
    const second = await eraseQueued(deps, input);
    expect(second).toMatchObject({ count: 1, eventIds: [event.id] });
    expect(await outboxOf(live.id)).toEqual([
      expect.objectContaining({ event_id: event.id, outcome: 'erased', erased_at: expect.any(String) }),
    ]);
    expect(await redisText(ctx.redis, ctx.prefix)).not.toContain(NUMBER);
  });
});

describe('an erasure whose event a live worker holds', () => {
  const pg = usePostgres('erasure_active');

  it('keeps its fence up until the job has left the active list, then finishes', async () => {
    const history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
    ctx.onCleanup(() => history.close());
    const account = await store.accounts.create({ name: 'Acme Telecom' });
    const hook = await store.hooks.create(
      account.id,
      { url: 'http://127.0.0.1:9/h', format: 'json' },
      'operator',
    );
    const producer = ctx.closeLater(new Producer({ redis: ctx.redis, keys, erasureTags: store.erasureTags }));
    const event = await producer.publish(account.id, {
      type: 'call_created',
      data: { call_id: 'a2', direction: 'inbound', from: NUMBER, from_cnam: 'Ada', to: '+4420', rate: '0.0' },
    });
    await producer.close(); // its inbox entry, deleted just after the answer, is gone before the steps run
    const held = await takeJob(hook.id, { begun: false, alive: true });

    const { id } = await store.erasures.request(account.id, { kind: 'number', value: NUMBER }, 'operator');
    const runner = startErasureRunner({
      ...deps,
      sql: history.client,
      erasures: store.erasures,
      audit: async () => undefined,
      holder: 'test-monitor',
      log: createLogger('silent', 'test-erasures'),
      settleMs: 0,
      pollMs: 50,
      activePollMs: 50,
    });
    ctx.onCleanup(() => runner.close());
    // Every step up to the fence's last one is done, and the erasure waits there while the holder lives.
    const waitingStep = STEPS.indexOf('active-gone');
    await waitUntil(async () => {
      const raw = await ctx.redis.hget(keys.erasure(account.id, id), 'step');
      return Number(raw) === waitingStep ? true : undefined;
    }, 'the erasure to reach its last fence step');
    for (let i = 0; i < 5; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await store.erasures.get(account.id, id))?.state).toBe('running');
      expect(await ctx.redis.smembers(keys.hookErasing(hook.id))).not.toEqual([]);
    }

    // The holder dies without recording anything: its lock lapses, the erasure takes the job and finishes.
    await ctx.redis.del(held.layout.jobLock(held.jobId));
    const done = await waitUntil(async () => {
      const view = await store.erasures.get(account.id, id);
      return view?.state === 'done' ? view : undefined;
    }, 'the erasure to be done');
    expect(done.counts.queued).toBe(1);
    expect(await ctx.redis.llen(held.layout.active)).toBe(0);
    expect(await redisText(ctx.redis, ctx.prefix)).not.toContain(NUMBER);
    expect(event.id).toBe(held.jobId);
  });
});
