import type { HookView } from '@hookline/core';
import { HookJobAdder, HookJobs, HookQueues, hookQueueLayout, type RedisKeys } from '@hookline/redis';
import type { useRedis } from '@hookline/testing';
import type { Store, StoreDeps } from '../create-store';
import { storeForTest } from './store-for-test';

/**
 * The production store, one hook and its queue holding two jobs (`evt_1`, `evt_2`, data `{ n }`), added as
 * producers add them: for the tests of the ledger's scripts that run BullMQ's own (take, finish).
 */
export async function hookWithJobs(
  ctx: Pick<ReturnType<typeof useRedis>, 'prefix' | 'redis'>,
  options: Pick<StoreDeps, 'suspensionRule'> = {},
): Promise<{
  store: Store;
  keys: RedisKeys;
  hook: HookView;
  queues: HookQueues;
  jobs: HookJobs;
  layout: ReturnType<typeof hookQueueLayout>;
}> {
  const { store, keys } = storeForTest(ctx, options);
  const account = await store.accounts.create({ name: 'Acme' });
  const hook = await store.hooks.create(
    account.id,
    { url: 'https://example.com/in', format: 'json' },
    'test',
  );
  const queues = new HookQueues(ctx.redis, keys);
  await queues.setUp(hook.id);
  const adder = new HookJobAdder(ctx.redis, keys);
  for (const n of [1, 2]) {
    const jobId = `evt_${n}`;
    await adder.add(
      hook.id,
      'deliver.v1',
      { n },
      {
        jobId,
        attempts: 1,
        removeOnComplete: 20,
        removeOnFail: 20,
        deduplication: { id: jobId, ttl: 60_000 },
      },
    );
  }
  return {
    store,
    keys,
    hook,
    queues,
    jobs: new HookJobs(ctx.redis, keys, 30_000),
    layout: hookQueueLayout(keys, hook.id),
  };
}
