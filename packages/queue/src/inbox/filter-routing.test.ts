import fc from 'fast-check';
import { matchesFilter, type DeliverableEvent, type FilterCondition, type HookFilter } from '@hookline/core';
import { redisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { AccountInbox } from './account-inbox';

// The accept script applies hook filters in Lua (where the fan-out picks the hooks); core's matchesFilter is
// the reference. Random filters and events on a real Redis: the script picks exactly the hooks it says.
describe('filters in the accept script', () => {
  const ctx = useRedis('filter-lua');

  const fieldName = fc.constantFrom('from', 'to', 'queue');
  // Multi-byte characters: Lua compares bytes, JavaScript UTF-16 units; prefixes must agree all the same.
  const text = fc.string({ maxLength: 3, unit: fc.constantFrom('4', '+', 'é', '😀', '"', '\\') });
  const condition: fc.Arbitrary<FilterCondition> = fc.oneof(
    text,
    fc.record({ $in: fc.array(text, { minLength: 1, maxLength: 3 }) }),
    fc.record({ $prefix: text }),
    fc.record({ $exists: fc.boolean() }),
  );
  const filter = fc.dictionary(fieldName, condition, { maxKeys: 3 });
  const fields = fc.dictionary(fieldName, text, { maxKeys: 3 });

  it('routes an event to exactly the hooks whose filter matches (fast-check against matchesFilter)', async () => {
    const keys = redisKeys(ctx.prefix);
    const inbox = new AccountInbox(ctx.redis, keys);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(filter), { minLength: 1, maxLength: 4 }),
        fields,
        async (filters, f) => {
          round += 1;
          const acct = `acct_r${round}`;
          const hooks = filters.map((_, i) => `hk_${i}`);
          await ctx.redis.sadd(keys.accountHooks(acct), ...hooks);
          for (const [i, hf] of filters.entries())
            if (hf) await ctx.redis.hset(keys.accountHookFilters(acct), hooks[i]!, JSON.stringify(hf));
          const event: DeliverableEvent = { id: `evt_${round}`, type: 'call_created', fields: f };
          const accepted = await inbox.accept({
            accountId: acct,
            event,
            acceptedAt: Date.now(),
            idempotencyTtlSeconds: 60,
            graceMs: 60_000,
            maxAbandoned: 0,
          });
          const expected = hooks.filter((_, i) => matchesFilter((filters[i] ?? undefined) as HookFilter, f));
          expect(accepted.kind === 'accepted' && accepted.answer.hooks).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });
});
