import type { AttemptRecord } from '@hookline/core';
import { encodeCursor } from '@hookline/history';
import { useApi } from '../test-support/api-harness';
import { BASE, attemptAt, logLine } from '../test-support/attempt-records';

// The account's delivery log (product.md §10): every hook of the account, newest first, the same filters as a
// hook's log and none required. Over the real PostgreSQL server, read as the HTTP answer's bytes.

/** Newest first, ties broken by attempt id (highest first): the order the API promises, cursor included. */
const newestFirst = (records: readonly AttemptRecord[]) =>
  [...records].sort(
    (a, b) =>
      Date.parse(b.attempted_at) - Date.parse(a.attempted_at) ||
      (a.attempt_id < b.attempt_id ? 1 : a.attempt_id > b.attempt_id ? -1 : 0),
  );

describe("the account's delivery log", () => {
  const api = useApi();
  const logUrl = (acct: string, query = '') => `/v1/accounts/${acct}/deliveries${query ? `?${query}` : ''}`;
  const idsOf = (res: { json(): { data: AttemptRecord[] } }) => res.json().data.map((r) => r.attempt_id);

  /**
   * An account with two hooks whose attempts interleave in time (two of them in the same second), and another
   * account with attempts before, between and after them.
   */
  async function twoHooks() {
    const acct = await api.createAccount('Mine');
    const [a, b] = [(await api.createHook(acct)).id, (await api.createHook(acct)).id];
    const mine = [
      attemptAt(acct, a, 1),
      attemptAt(acct, b, 2),
      attemptAt(acct, a, 3, { outcome: 'failed', status_code: 503, error: 'HTTP 503' }),
      attemptAt(acct, b, 4),
      attemptAt(acct, a, 5),
      attemptAt(acct, b, 5, { call_id: 'call-5b' }),
      attemptAt(acct, b, 6, { outcome: 'failed', status_code: 500, error: 'HTTP 500' }),
    ];
    const other = await api.createAccount('Theirs');
    const otherHook = (await api.createHook(other)).id;
    const theirs = [0, 3, 7].map((n) => attemptAt(other, otherHook, n, { outcome: 'failed' }));
    await api.history.writer.write([...mine, ...theirs]);
    return {
      acct,
      a,
      b,
      mine,
      theirs /** Record n of a hook. */,
      byN: (hook: string, n: number) =>
        mine.find((r) => r.hook_id === hook && Date.parse(r.attempted_at) === BASE + n * 1000)!,
    };
  }

  it('answers the whole log without a filter: every hook of the account, newest first, none of another', async () => {
    const { acct, a, mine, theirs } = await twoHooks();
    const res = await api.call('GET', logUrl(acct));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: newestFirst(mine).map(logLine) });
    for (const r of theirs) expect(res.body).not.toContain(r.attempt_id);
    // A row reads as in the hook's own log, its hook named.
    const hookLog = await api.call('GET', `/v1/accounts/${acct}/hooks/${a}/deliveries`);
    const row = res
      .json()
      .data.find((r: AttemptRecord) => r.attempt_id === hookLog.json().data[0].attempt_id);
    expect(row).toEqual(hookLog.json().data[0]);
    expect(row.hook_id).toBe(a);
  });

  it('pages through the log with cursors: every attempt once, in order, and the last page says so', async () => {
    const { acct, mine } = await twoHooks();
    const seen: string[] = [];
    let query = 'limit=2';
    for (let page = 0; page < 10; page++) {
      const res = await api.call('GET', logUrl(acct, query));
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.data.length).toBeLessThanOrEqual(2);
      seen.push(...body.data.map((r: AttemptRecord) => r.attempt_id));
      if (!body.next_cursor) break;
      query = `limit=2&cursor=${body.next_cursor}`;
    }
    expect(seen).toEqual(newestFirst(mine).map((r) => r.attempt_id));
  });

  it('takes each filter alone: limit, outcome, call id, event id, since, until', async () => {
    const { acct, a, b, mine, byN } = await twoHooks();
    const ids = (...records: AttemptRecord[]) => newestFirst(records).map((r) => r.attempt_id);
    const at = (n: number) => new Date(BASE + n * 1000).toISOString();

    const firstThree = await api.call('GET', logUrl(acct, 'limit=3'));
    expect(idsOf(firstThree)).toEqual(ids(...mine).slice(0, 3));
    expect(typeof firstThree.json().next_cursor).toBe('string');
    expect(idsOf(await api.call('GET', logUrl(acct, 'outcome=failed')))).toEqual(ids(byN(b, 6), byN(a, 3)));
    expect(idsOf(await api.call('GET', logUrl(acct, 'call_id=call-4')))).toEqual(ids(byN(b, 4)));
    expect(idsOf(await api.call('GET', logUrl(acct, `event_id=${byN(a, 1).event_id}`)))).toEqual(
      ids(byN(a, 1)),
    );
    expect(idsOf(await api.call('GET', logUrl(acct, `since=${at(5)}`)))).toEqual(
      ids(byN(b, 6), byN(a, 5), byN(b, 5)),
    );
    expect(idsOf(await api.call('GET', logUrl(acct, `until=${at(3)}`)))).toEqual(ids(byN(b, 2), byN(a, 1)));
  });

  it.each([
    ['limit=0', 'limit', 'must be a whole number from 1 to 200'],
    ['limit=201', 'limit', 'must be a whole number from 1 to 200'],
    ['limit=ten', 'limit', 'must be a whole number from 1 to 200'],
    ['cursor=abc', 'cursor', 'is not a cursor this API gave (use next_cursor)'],
    [
      `cursor=${Buffer.from('2026-11-20T09:00:00Z|hk_1').toString('base64url')}`,
      'cursor',
      'is not a cursor this API gave (use next_cursor)',
    ],
    ['outcome=lost', 'outcome', expect.stringContaining('must be one of delivered')],
    ['since=yesterday', 'since', 'must be an ISO 8601 time such as 2026-11-24T09:00:00Z'],
    // The database cannot hold NUL: such a filter was a 500, it is the caller's mistake.
    ['call_id=%00', 'call_id', 'must not contain control characters'],
    ['event_id=a%00b', 'event_id', 'must not contain control characters'],
    // A cursor's time is only ever what toISOString wrote: a year PostgreSQL cannot hold was a 500.
    [
      `cursor=${Buffer.from('-100000-01-01T00:00:00.000Z|att_00000000000000000000').toString('base64url')}`,
      'cursor',
      'is not a cursor this API gave (use next_cursor)',
    ],
    [
      `cursor=${Buffer.from('2026-02-30T00:00:00Z|att_00000000000000000000').toString('base64url')}`,
      'cursor',
      'is not a cursor this API gave (use next_cursor)',
    ],
    // Date.parse rolls these over into the next month.
    ['since=2026-02-30T00:00:00Z', 'since', 'must be a date the calendar has (2026-02-30 is not one)'],
    ['until=2026-11-31T00:00:00Z', 'until', 'must be a date the calendar has (2026-11-31 is not one)'],
    // The message says a whole number: what a number parser would also read is not one.
    ['limit=1e2', 'limit', 'must be a whole number from 1 to 200'],
    ['limit=0x10', 'limit', 'must be a whole number from 1 to 200'],
    ['limit=007', 'limit', 'must be a whole number from 1 to 200'],
    ['limit=%205', 'limit', 'must be a whole number from 1 to 200'],
    ['limit=5&limit=6', 'limit', 'must be given once'],
    ['since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z', 'until', 'must be later than since'],
    ['hook=hk_1', 'hook', expect.any(String)],
  ])('answers 400 naming the field for %s', async (query, field, message) => {
    const acct = await api.createAccount();
    const res = await api.call('GET', logUrl(acct, query));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
    expect(res.json().error.details).toEqual([{ field, message }]);
  });

  it("answers 404 for an unknown account and 401 without the key, showing none of the account's log", async () => {
    const { acct, mine } = await twoHooks();
    const unknown = await api.call('GET', logUrl('acct_00000000000000000000'));
    expect(unknown.statusCode).toBe(404);
    const anonymous = await api.call('GET', logUrl(acct), undefined, { key: null });
    expect(anonymous.statusCode).toBe(401);
    for (const res of [unknown, anonymous]) expect(res.body).not.toContain(mine[0]!.attempt_id);
    // A cursor is only a position: another account's records before it stay out.
    const cursor = encodeCursor(new Date(BASE + 10_000).toISOString(), mine[0]!.attempt_id);
    const paged = await api.call('GET', logUrl(acct, `cursor=${cursor}`));
    expect(paged.json().data).toHaveLength(mine.length);
  });
});
