import type { AttemptRecord } from '@hookline/core';
import { HistoryOutbox } from '@hookline/redis';
import { useApi } from '../test-support/api-harness';
import { BASE, attemptAt, logLine } from '../test-support/attempt-records';

// A record is readable as soon as its outcome is recorded (product.md §10): before the monitor's history writer
// has moved it from the hook's Redis outbox to PostgreSQL, the account's log shows it as the hook's log does.
// No writer runs here: what is appended to an outbox stays there. Real Redis and the real PostgreSQL server.

const newestFirst = (records: readonly AttemptRecord[]) =>
  [...records].sort(
    (a, b) =>
      Date.parse(b.attempted_at) - Date.parse(a.attempted_at) ||
      (a.attempt_id < b.attempt_id ? 1 : a.attempt_id > b.attempt_id ? -1 : 0),
  );

describe("the account's delivery log, records not yet in the database", () => {
  const api = useApi();
  const logUrl = (acct: string, query = '') => `/v1/accounts/${acct}/deliveries${query ? `?${query}` : ''}`;
  const idsOf = (res: { json(): { data: AttemptRecord[] } }) => res.json().data.map((r) => r.attempt_id);
  const ids = (...records: AttemptRecord[]) => newestFirst(records).map((r) => r.attempt_id);

  /**
   * Two hooks of one account: some records written to the database, some only in their outboxes, one in both
   * (written, not yet trimmed); another account's hook with records waiting in its outbox.
   */
  async function halfWritten() {
    const outbox = new HistoryOutbox(api.ctx.redis, api.keys);
    const acct = await api.createAccount('Mine');
    const [a, b] = [(await api.createHook(acct)).id, (await api.createHook(acct)).id];
    const written = [attemptAt(acct, a, 1), attemptAt(acct, b, 2)];
    const both = attemptAt(acct, a, 4, { outcome: 'failed', status_code: 503, error: 'HTTP 503' });
    const waitingA = [attemptAt(acct, a, 3), both, attemptAt(acct, a, 6)];
    const waitingB = [attemptAt(acct, b, 5, { outcome: 'failed', status_code: 500, error: 'HTTP 500' })];
    await api.history.writer.write([...written, both]);
    await outbox.append(a, waitingA);
    await outbox.append(b, waitingB);
    const other = await api.createAccount('Theirs');
    const otherHook = (await api.createHook(other)).id;
    const theirs = [attemptAt(other, otherHook, 3, { call_id: 'call-5' }), attemptAt(other, otherHook, 7)];
    await outbox.append(otherHook, theirs);
    const mine = [...written, ...waitingA, ...waitingB];
    return {
      acct,
      a,
      b,
      mine,
      both,
      theirs,
      byN: (n: number) => mine.find((r) => r.call_id === `call-${n}`)!,
    };
  }

  it('shows them in the whole log, newest first, once each, none of another account', async () => {
    const { acct, mine, theirs } = await halfWritten();
    const res = await api.call('GET', logUrl(acct));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: newestFirst(mine).map(logLine) });
    for (const r of theirs) expect(res.body).not.toContain(r.attempt_id);
  });

  it('pages through database and outboxes together: every attempt once, in order', async () => {
    const { acct, mine } = await halfWritten();
    const seen: string[] = [];
    let query = 'limit=2';
    for (let page = 0; page < 10; page++) {
      const body = (await api.call('GET', logUrl(acct, query))).json();
      expect(body.data.length).toBeLessThanOrEqual(2);
      seen.push(...body.data.map((r: AttemptRecord) => r.attempt_id));
      if (!body.next_cursor) break;
      query = `limit=2&cursor=${body.next_cursor}`;
    }
    expect(seen).toEqual(ids(...mine));
  });

  it('applies each filter to the waiting records as to the written ones', async () => {
    const { acct, byN } = await halfWritten();
    const at = (n: number) => new Date(BASE + n * 1000).toISOString();
    expect(idsOf(await api.call('GET', logUrl(acct, 'call_id=call-5')))).toEqual(ids(byN(5)));
    expect(idsOf(await api.call('GET', logUrl(acct, `event_id=${byN(6).event_id}`)))).toEqual(ids(byN(6)));
    expect(idsOf(await api.call('GET', logUrl(acct, 'outcome=failed')))).toEqual(ids(byN(5), byN(4)));
    expect(idsOf(await api.call('GET', logUrl(acct, `since=${at(3)}&until=${at(6)}`)))).toEqual(
      ids(byN(5), byN(4), byN(3)),
    );
    const failedFirst = await api.call('GET', logUrl(acct, 'outcome=failed&limit=1'));
    expect(idsOf(failedFirst)).toEqual(ids(byN(5)));
    const failedNext = await api.call(
      'GET',
      logUrl(acct, `outcome=failed&limit=1&cursor=${failedFirst.json().next_cursor}`),
    );
    expect(idsOf(failedNext)).toEqual(ids(byN(4)));
    expect(failedNext.json().next_cursor).toBeUndefined();
  });
});
