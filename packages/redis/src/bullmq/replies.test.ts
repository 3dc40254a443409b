import { Queue } from 'bullmq';
import { useRedis } from '@hookline/testing';
import { redisKeys } from '../keys';
import { HookBackends } from './backends';
import { EVENTS_MAX_LEN, HookQueues } from './hook-queues';
import { activatedJob, BullmqReplyError, jobFromHash, lockExtended, nextJobAfterFinish } from './replies';

describe("BullMQ's replies, as hookline reads them", () => {
  const ctx = useRedis('bullmq-replies');
  const hookId = 'hk_replies';

  // BullMQ's own scripts, run through its queue backend as the worker runs them: if an upgrade changes what
  // they answer, these reads fail here rather than the worker taking a job for "none".
  it("reads BullMQ's real answers to take, finish-and-fetch and lock extension", async () => {
    const keys = redisKeys(ctx.prefix);
    await new HookQueues(ctx.redis, keys).setUp(hookId);
    const queue = new Queue(keys.hookQueueName(hookId), {
      connection: ctx.redis,
      prefix: keys.prefix,
      streams: { events: { maxLen: EVENTS_MAX_LEN } },
    });
    ctx.onCleanup(() => queue.close());
    for (const n of [1, 2]) await queue.add('deliver.v1', { n }, { attempts: 1, removeOnFail: 5 });
    const backend = new HookBackends(ctx.redis, keys, 5_000).of(hookId);

    const first = activatedJob(await backend.moveToActive('tok'));
    expect(first).toEqual({ id: '1', data: '{"n":1}', opts: expect.objectContaining({ attempts: 1 }) });
    expect(first?.opts.removeOnFail).toBe(5);
    expect(lockExtended(await backend.extendLock('1', 'tok', 5_000))).toBe(true);
    expect(lockExtended(await backend.extendLock('1', 'another', 5_000))).toBe(false);

    const minimal = { id: '1', opts: first!.opts } as Parameters<typeof backend.moveToFailed>[0];
    const second = nextJobAfterFinish(await backend.moveToFailed(minimal, 'failed 500', 5, 'tok', true));
    expect(second).toMatchObject({ id: '2', data: '{"n":2}' });
    const minimal2 = { id: '2', opts: second!.opts } as Parameters<typeof backend.moveToCompleted>[0];
    expect(
      nextJobAfterFinish(await backend.moveToCompleted(minimal2, 'ok', false, 'tok', true)),
    ).toBeUndefined();
    expect(activatedJob(await backend.moveToActive('tok'))).toBeUndefined();
    // A job hash read by hookline's own script (job-adopt.lua) parses as BullMQ parses it.
    const fields = (await ctx.redis.call(
      'HGETALL',
      `${keys.prefix}:${keys.hookQueueName(hookId)}:2`,
    )) as string[];
    expect(jobFromHash('2', fields)).toMatchObject({ id: '2', data: '{"n":2}' });
  });

  it('refuses a shape it does not know, naming the call and what it found', () => {
    expect(() => activatedJob('OK')).toThrow(BullmqReplyError);
    expect(() => activatedJob([{ data: 1, opts: {} }, '7'])).toThrow(
      'BullMQ\'s moveToActive answered in a shape hookline does not know: [{"data":1,"opts":{}},"7"]',
    );
    expect(() => nextJobAfterFinish([])).toThrow(/moveToFinished/);
    expect(() => nextJobAfterFinish({ result: [{ data: '{}' }, '3'] })).toThrow(/moveToFinished/);
    expect(() => lockExtended('1')).toThrow(/extendLock/);
    expect(() => jobFromHash('3', 'gone')).toThrow(/a job hash/);
    // Nothing to hand over is not an error.
    expect(activatedJob([])).toBeUndefined();
    expect(activatedJob([0, 0, 0, 0])).toBeUndefined();
    expect(nextJobAfterFinish({ result: undefined, finishedOn: 1 })).toBeUndefined();
  });
});
