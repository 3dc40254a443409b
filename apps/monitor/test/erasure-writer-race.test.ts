import { randomBytes } from 'node:crypto';
import { buildAttemptRecord, systemClock, type AttemptRecord } from '@hookline/core';
import { HistoryDrain, HistoryWriter, openHistory, type HistoryStore } from '@hookline/history';
import { HistoryOutbox, HookQueues, redisKeys, type RedisKeys } from '@hookline/redis';
import { createStore, SecretBox, type Store } from '@hookline/store';
import { usePostgres, useRedis } from '@hookline/testing';
import { eraseDatabase, eraseOutboxes, type StepDeps } from '../src/erasures/erasure-steps';
import { databaseText } from './erasure-support';

// A history writer that read an outbox's records, then stalled while an erasure went through the outboxes and
// the database, and wrote what it had read afterwards: the erasure must still win. Without the erasure counter
// the writer's trim went through (its last record was untouched) and the full row of the erased event stayed
// in the database for good.

jest.setTimeout(30000);

const ctx = useRedis('erasure-writer');
const pg = usePostgres('erasure_writer');
const NUMBER = '+15550100777';
const NAME = 'Late Writer Caller';
let keys: RedisKeys;
let store: Store;
let history: HistoryStore;

beforeEach(async () => {
  keys = redisKeys(ctx.prefix);
  history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
  ctx.onCleanup(() => history.close());
  store = createStore({
    redis: ctx.redis,
    keys,
    secretBox: SecretBox.fromKey(randomBytes(32)),
    hookQueues: new HookQueues(ctx.redis, keys),
  });
});

/** A writer that waits at its first batch until let go: the stall between a drain's read and its insert. */
class StalledWriter extends HistoryWriter {
  reached!: () => void;
  readonly atFirstWrite = new Promise<void>((resolve) => (this.reached = resolve));
  letGo!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.letGo = resolve));
  private first = true;
  override async write(records: readonly AttemptRecord[]): Promise<void> {
    if (this.first) {
      this.first = false;
      this.reached();
      await this.gate;
    }
    return super.write(records);
  }
}

describe('an erasure overtaking a stalled history writer', () => {
  it('leaves no full row of an erased event, even when the writer inserts after the erasure is done', async () => {
    const account = await store.accounts.create({ name: 'Acme Telecom' });
    const hook = await store.hooks.create(
      account.id,
      { url: 'http://127.0.0.1:9/hook', format: 'json', auth: { scheme: 'none' } },
      'operator',
    );
    const record = (callId: string, from: string, cnam: string) =>
      buildAttemptRecord(
        {
          accountId: account.id,
          hookId: hook.id,
          trigger: 'auto',
          event: {
            id: `evt-${callId}`,
            type: 'call_created',
            fields: {
              call_id: callId,
              direction: 'inbound',
              from,
              from_cnam: cnam,
              to: '+4420',
              rate: '0.0',
            },
          },
        },
        { outcome: 'delivered', at: new Date(), statusCode: 200, durationMs: 12 },
      );
    const outbox = new HistoryOutbox(ctx.redis, keys);
    // The erased event's record is not the last one read: a trim that checks only the last would go through.
    await outbox.append(hook.id, [record('w1', NUMBER, NAME), record('w2', '+16660000', 'Someone Kept')]);

    const writer = new StalledWriter(history.client);
    const errors: unknown[] = [];
    const drain = new HistoryDrain({
      outbox,
      writer,
      partitions: history.partitions,
      retentionDays: 30,
      clock: systemClock,
      onError: (error) => errors.push(error),
    });
    const stalledRound = drain.round();
    await writer.atFirstWrite;

    // The erasure goes through the outboxes and the database, both passes, while the writer holds its read.
    const deps: StepDeps = {
      redis: ctx.redis,
      keys,
      erasures: store.erasures,
      outbox,
      hookQueues: new HookQueues(ctx.redis, keys),
      sql: history.client,
      clock: systemClock,
    };
    const target = { kind: 'number', value: NUMBER } as const;
    const input = { accountId: account.id, erasureId: 'ers_00000000000000000000', target };
    for (let pass = 0; pass < 2; pass += 1) {
      await eraseOutboxes(deps, input);
      await eraseDatabase(deps, input);
    }

    // The writer wakes up and inserts the full records it read; then it goes on as usual.
    writer.letGo();
    await stalledRound;
    while ((await ctx.redis.llen(keys.hookHistoryOutbox(hook.id))) > 0) await drain.round();
    expect(errors).toEqual([]);

    const rows = await history.client.query<{
      event_id: string;
      erased_at: Date | null;
      call_id: string | null;
    }>(`SELECT event_id, erased_at, call_id FROM ${pg.schema}.attempts ORDER BY event_id`);
    expect(rows).toEqual([
      { event_id: 'evt-w1', erased_at: expect.any(Date), call_id: null },
      { event_id: 'evt-w2', erased_at: null, call_id: 'w2' },
    ]);
    const text = await databaseText(history.client, pg.schema);
    expect(text).not.toContain(NUMBER);
    expect(text).not.toContain(NAME);
    expect(text).toContain('Someone Kept');
  });
});
