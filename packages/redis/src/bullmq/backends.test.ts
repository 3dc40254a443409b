import { Queue } from 'bullmq';
import { useRedis } from '@hookline/testing';
import { redisKeys } from '../keys';
import { HookBackends } from './backends';
import { HookQueues } from './hook-queues';
import { activatedJob } from './replies';

describe("the hook queues' BullMQ backends", () => {
  const ctx = useRedis('bullmq-backends');

  it('keeps the most lately used, forgets the least lately used past its bound, and each works on its queue', async () => {
    const keys = redisKeys(ctx.prefix);
    const backends = new HookBackends(ctx.redis, keys, 5_000, 2);
    const a = backends.of('hk_a');
    const b = backends.of('hk_b');
    expect(backends.of('hk_a')).toBe(a); // kept, and now the most lately used
    backends.of('hk_c'); // past the bound: hk_b, the least lately used, is forgotten
    expect(backends.of('hk_a')).toBe(a);
    const b2 = backends.of('hk_b');
    expect(b2).not.toBe(b);
    // A backend made again runs BullMQ's scripts on its own hook's queue: it takes that queue's job.
    await new HookQueues(ctx.redis, keys).setUp('hk_b');
    const queue = new Queue(keys.hookQueueName('hk_b'), { connection: ctx.redis, prefix: keys.prefix });
    ctx.onCleanup(() => queue.close());
    await queue.add('deliver.v1', { n: 1 });
    expect(activatedJob(await b2.moveToActive('tok'))).toMatchObject({ id: '1', data: '{"n":1}' });
  });
});
