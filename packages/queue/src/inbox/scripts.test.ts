import { join } from 'node:path';
import { redisKeys, scriptFolderProblems } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { AccountInbox } from './account-inbox';
import { INBOX_SCRIPTS } from './scripts';

describe("the account inbox's Lua scripts", () => {
  const ctx = useRedis('scripts');

  it('every file is in the catalogue, says its KEYS and compiles', async () => {
    expect(await scriptFolderProblems(join(__dirname, 'scripts'), INBOX_SCRIPTS, ctx.redis)).toEqual([]);
  });

  it('accepts an event asking for no abandoned entries while older ones wait in the inbox', async () => {
    const inbox = new AccountInbox(ctx.redis, redisKeys(ctx.prefix));
    const accept = (eventId: string, acceptedAt: number, maxAbandoned: number) =>
      inbox.accept({
        accountId: 'acct_1',
        event: { id: eventId, type: 'call_created', fields: { call_id: eventId } },
        acceptedAt,
        hooks: ['hk_1'],
        idempotencyTtlSeconds: 60,
        graceMs: 0, // every entry already in the inbox counts as abandoned
        maxAbandoned,
      });
    expect((await accept('evt_1', Date.now(), 10)).kind).toBe('accepted');
    const none = await accept('evt_2', Date.now(), 0);
    expect(none).toMatchObject({ kind: 'accepted', abandoned: [] });
    const some = await accept('evt_3', Date.now(), 10);
    expect(some.abandoned.map((entry) => entry.event.id)).toEqual(['evt_1', 'evt_2']);
  });
});
