import { parseEventCatalog, personalFields } from '@hookline/core';
import { hookQueueLayout } from '@hookline/redis';
import { Producer } from '@hookline/queue';
import { CALLBACK_CATALOG, useRedis } from '@hookline/testing';
import { eraseOutboxes, eraseQueued, eraseRetained } from '../src/erasures/erasure-steps';
import { erasureStepsFor, redisText } from './erasure-support';

// The scripts' side of personal fields (erasure-match.lua): a waiting event, a retained finished job and an
// unwritten record of a catalogue kind whose personal field is the number are each reached; the same kind
// with the number only in a field that is not personal is not.

const ctx = useRedis('erasure-personal-queued');
const NUMBER = '+15550100444';
const parsed = parseEventCatalog(CALLBACK_CATALOG);
if (!parsed.ok) throw new Error(parsed.problems.join('; '));
const catalog = parsed.catalog;

it('reaches waiting events, retained jobs and outbox records by their personal field, and no other field', async () => {
  const { keys, store, outbox, deps } = erasureStepsFor(ctx, { catalog });
  const account = await store.accounts.create({ name: 'Callbacks' });
  const hook = await store.hooks.create(
    account.id,
    { url: 'http://127.0.0.1:9/cb', format: 'json' },
    'operator',
  );
  const producer = ctx.closeLater(
    new Producer({ redis: ctx.redis, keys, catalog, erasureTags: store.erasureTags }),
  );
  const publish = (callback: string, note: string) =>
    producer.publish(account.id, { type: 'callback_requested', data: { callback, note } });
  const finished = await publish(NUMBER, 'finished one');
  const waiting = await publish(NUMBER, 'waiting one');
  const other = await publish('+16660002', NUMBER); // the number in a field that is not personal
  await producer.close(); // the inbox entries, deleted just after the answers, are gone before the steps run
  // The first event as a finished job BullMQ keeps (its data as a version without data-emptying left it), and
  // an unwritten record quoting the same event.
  const layout = hookQueueLayout(keys, hook.id);
  expect(await ctx.redis.rpop(layout.wait)).toBe(finished.id);
  await ctx.redis.zadd(layout.completed, Date.now(), finished.id);
  const job = JSON.parse((await ctx.redis.hget(layout.jobPrefix + finished.id, 'data'))!) as {
    event: { fields: Record<string, string> };
  };
  await outbox.append(hook.id, [
    {
      attempt_id: 'att_1',
      event_id: finished.id,
      event_type: 'callback_requested',
      outcome: 'delivered',
      attempted_at: new Date().toISOString(),
      account_id: account.id,
      hook_id: hook.id,
      event_fields: job.event.fields,
    },
  ]);

  const target = { kind: 'number', value: NUMBER, personal: personalFields(catalog) } as const;
  const input = { accountId: account.id, erasureId: 'ers_00000000000000000000', target };
  expect((await eraseQueued(deps, input)).eventIds).toEqual([waiting.id]);
  expect((await eraseRetained(deps, input)).eventIds).toEqual([finished.id]);
  expect((await eraseOutboxes(deps, input)).eventIds).toEqual([finished.id]);

  // What is left quotes the other event only, whose `note` holds the number: not personal, kept.
  const text = await redisText(ctx.redis, ctx.prefix);
  expect(text).not.toContain('waiting one');
  expect(text).not.toContain('finished one');
  expect(await ctx.redis.lrange(layout.wait, 0, -1)).toEqual([other.id]);
});
