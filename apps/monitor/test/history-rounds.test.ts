import { buildAttemptRecord, systemClock } from '@hookline/core';
import { HistoryDrain, openHistory, type HistoryStore } from '@hookline/history';
import { HistoryOutbox, redisKeys } from '@hookline/redis';
import { usePostgres, useRedis } from '@hookline/testing';

// Whether a history writer's round tells its loop that more is waiting: only then does the next round follow at
// once; a round that kept up lets the loop gather work for a moment (DrainLoop), so that at a steady rate a
// round's scripts and insert are shared by many records.

jest.setTimeout(30000);

const ctx = useRedis('history-rounds');
const pg = usePostgres('history_rounds');
let history: HistoryStore;

beforeEach(async () => {
  history = await openHistory({ kind: 'server', url: pg.url, schema: pg.schema });
  ctx.onCleanup(() => history.close());
});

const records = (hookId: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    buildAttemptRecord(
      {
        accountId: 'acct_rounds',
        hookId,
        trigger: 'auto',
        event: {
          id: `evt-${hookId}-${i}`,
          type: 'call_created',
          fields: { call_id: `c${i}`, direction: 'inbound', from: '1', from_cnam: 'A', to: '2', rate: '0.0' },
        },
      },
      { outcome: 'delivered', at: new Date(), statusCode: 200, durationMs: 3 },
    ),
  );

describe("a history writer's rounds", () => {
  it('say more is waiting when they took a full round of hooks, or left records in a hook', async () => {
    const outbox = new HistoryOutbox(ctx.redis, redisKeys(ctx.prefix));
    const drain = new HistoryDrain({
      outbox,
      writer: history.writer,
      partitions: history.partitions,
      retentionDays: 30,
      clock: systemClock,
      hooksPerRound: 2,
      onError: (error) => {
        throw error;
      },
    });
    for (const hookId of ['hk_r1', 'hk_r2', 'hk_r3']) await outbox.append(hookId, records(hookId, 2));
    expect(await drain.round()).toEqual({ hooks: 2, records: 4, more: true });
    expect(await drain.round()).toEqual({ hooks: 1, records: 2, more: false });

    // A backlog beyond one read (500 records a hook): the hook keeps its records past the first 500.
    await outbox.append('hk_big', records('hk_big', 501));
    expect(await drain.round()).toEqual({ hooks: 1, records: 500, more: true });
    expect(await drain.round()).toEqual({ hooks: 1, records: 1, more: false });
    expect(await drain.round()).toEqual({ hooks: 0, records: 0, more: false });

    const [row] = await history.client.query<{ n: string }>('SELECT count(*) AS n FROM attempts');
    expect(Number(row?.n)).toBe(507);
  });

  // hookline_history_lag_seconds (and the HooklineHistoryLagging alert) is read from the oldest mark: while the
  // database refuses writes, a hook's failed rounds must not move its mark up to each round's time.
  it('that fail leave the lag counting from when the records began to wait', async () => {
    const outbox = new HistoryOutbox(ctx.redis, redisKeys(ctx.prefix));
    const refused = Object.assign(new Error('the database refused the write'), { code: '57P03' });
    const drain = new HistoryDrain({
      outbox,
      writer: {
        write: () => Promise.reject(refused),
      } as unknown as HistoryStore['writer'],
      partitions: history.partitions,
      retentionDays: 30,
      clock: systemClock,
      onError: () => undefined,
    });
    await outbox.append('hk_wait', records('hk_wait', 2));
    const waitingSince = await outbox.oldestMark();
    expect(waitingSince).toBeDefined();
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 50)); // each round at a later time than the mark
      await expect(drain.round()).rejects.toBe(refused);
      expect(await outbox.oldestMark()).toBe(waitingSince);
    }

    // The database takes writes again: the records are written and the hook has no mark left.
    const writing = new HistoryDrain({
      outbox,
      writer: history.writer,
      partitions: history.partitions,
      retentionDays: 30,
      clock: systemClock,
      onError: (error) => {
        throw error;
      },
    });
    expect(await writing.round()).toEqual({ hooks: 1, records: 2, more: false });
    expect(await outbox.oldestMark()).toBeUndefined();
  });
});
