import { erasedRecord, type AttemptRecord } from '@hookline/core';
import { useApi } from '../test-support/api-harness';
import { BASE, attemptAt, logLine } from '../test-support/attempt-records';

// The history API (product.md §10) over the real PostgreSQL server: records written to the database and
// records still in a hook's Redis outbox (not yet moved by the writer) are read alike.

describe('the delivery history API', () => {
  const api = useApi();
  const hookUrl = (acct: string, hook: string, rest = '') => `/v1/accounts/${acct}/hooks/${hook}${rest}`;

  /** A hook with `count` records: the older ones in the database, the newest `pending` still in Redis. */
  async function hookWithLog(count: number, pending = 0, make = attemptAt) {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    const records = Array.from({ length: count }, (_, i) => make(acct, hook.id, i + 1));
    await api.history.writer.write(records.slice(0, count - pending));
    await api.deps.outbox.append(hook.id, records.slice(count - pending));
    return { acct, hookId: hook.id, records };
  }

  it('lists the log newest first, 50 by default, written and pending records alike', async () => {
    const { acct, hookId, records } = await hookWithLog(60, 3);
    const res = await api.call('GET', hookUrl(acct, hookId, '/deliveries'));
    expect(res.statusCode).toBe(200);
    const { data, next_cursor } = res.json();
    expect(data).toHaveLength(50);
    expect(data[0]).toEqual(logLine(records[59]!));
    expect(data[49].event_id).toBe(records[10]!.event_id);
    expect(typeof next_cursor).toBe('string');
  });

  it('pages with cursors through every record once, in order', async () => {
    const { acct, hookId, records } = await hookWithLog(7, 2);
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 4; page++) {
      const res = await api.call('GET', hookUrl(acct, hookId, `/deliveries?limit=3${cursor}`));
      const body = res.json();
      seen.push(...body.data.map((r: AttemptRecord) => r.attempt_id));
      if (!body.next_cursor) break;
      cursor = `&cursor=${body.next_cursor}`;
    }
    expect(seen).toEqual([...records].reverse().map((r) => r.attempt_id));
  });

  it('filters by outcome, call id, event id and time', async () => {
    const { acct, hookId, records } = await hookWithLog(6, 0, (a, h, n) =>
      attemptAt(a, h, n, n % 2 === 0 ? { outcome: 'failed', status_code: 503 } : {}),
    );
    const get = async (q: string) =>
      (await api.call('GET', hookUrl(acct, hookId, `/deliveries?${q}`)))
        .json()
        .data.map((r: AttemptRecord) => r.attempt_id);
    const ids = (...ns: number[]) => ns.map((n) => records[n - 1]!.attempt_id);
    expect(await get('outcome=failed')).toEqual(ids(6, 4, 2));
    expect(await get('call_id=call-3')).toEqual(ids(3));
    expect(await get(`event_id=${records[4]!.event_id}`)).toEqual(ids(5));
    const since = new Date(BASE + 2000).toISOString();
    const until = new Date(BASE + 4000).toISOString();
    expect(await get(`since=${since}&until=${until}`)).toEqual(ids(3, 2));
  });

  it('searches the account by call id across its hooks, and never shows another account', async () => {
    const acct = await api.createAccount('Mine');
    const [a, b] = [await api.createHook(acct), await api.createHook(acct)];
    const theirs = await hookWithLog(1);
    const mine = [
      attemptAt(acct, a.id, 1, { call_id: 'c-42' }),
      attemptAt(acct, b.id, 2, { call_id: 'c-42' }),
    ];
    await api.history.writer.write([...mine, attemptAt(theirs.acct, theirs.hookId, 3, { call_id: 'c-42' })]);
    const res = await api.call('GET', `/v1/accounts/${acct}/deliveries?call_id=c-42`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: AttemptRecord) => [r.hook_id, r.call_id])).toEqual([
      [b.id, 'c-42'],
      [a.id, 'c-42'],
    ]);
    const none = await api.call(
      'GET',
      `/v1/accounts/${acct}/deliveries?call_id=${theirs.records[0]!.call_id}`,
    );
    expect(none.json()).toEqual({ data: [] });
  });

  it('shows one attempt in full: the request as sent, credentials masked, and the response', async () => {
    const { acct, hookId, records } = await hookWithLog(2, 1);
    for (const r of records) {
      const res = await api.call('GET', hookUrl(acct, hookId, `/deliveries/${r.attempt_id}`));
      expect(res.statusCode).toBe(200);
      // eslint-disable-next-line @typescript-eslint/no-unused-vars
      const { account_id, response_excerpt, ...rest } = r;
      expect(res.json()).toEqual({ ...rest, response: { status_code: 200, body_excerpt: 'ok' } });
    }
  });

  it("shows the client certificate's subject an attempt was sent with (mutual TLS), written and pending alike", async () => {
    const withCertificate = (acct: string, hookId: string, n: number) => {
      const r = attemptAt(acct, hookId, n);
      return { ...r, request: { ...r.request!, client_certificate: 'CN=hookline-client, O=Acme' } };
    };
    const { acct, hookId, records } = await hookWithLog(2, 1, withCertificate);
    for (const r of records) {
      const res = await api.call('GET', hookUrl(acct, hookId, `/deliveries/${r.attempt_id}`));
      expect(res.statusCode).toBe(200);
      expect(res.json().request.client_certificate).toBe('CN=hookline-client, O=Acme');
    }
  });

  it("shows the endpoint's response headers in the attempt's response, in order, and not in the log", async () => {
    const headers = { 'retry-after': '120', 'x-request-id': 'req-7f3a', 'set-cookie': 'session=••••' };
    const { acct, hookId, records } = await hookWithLog(2, 1, (a, h, n) =>
      attemptAt(a, h, n, { status_code: 429, response_headers: headers, response_headers_dropped: 4 }),
    );
    // One record from the database, one still in the hook's outbox.
    for (const r of records) {
      const res = await api.call('GET', hookUrl(acct, hookId, `/deliveries/${r.attempt_id}`));
      expect(res.statusCode).toBe(200);
      const { response } = res.json() as { response: Record<string, unknown> };
      expect(response).toEqual({ status_code: 429, headers, headers_dropped: 4, body_excerpt: 'ok' });
      expect(Object.keys(response.headers as object)).toEqual(['retry-after', 'x-request-id', 'set-cookie']);
      expect(res.json()).not.toHaveProperty('response_headers');
    }
    const log = await api.call('GET', hookUrl(acct, hookId, '/deliveries'));
    for (const row of log.json().data) {
      expect(row).not.toHaveProperty('response_headers');
      expect(row).not.toHaveProperty('response_headers_dropped');
    }
  });

  it("answers 404 for another account's attempt, an unknown one, or a malformed id", async () => {
    const theirs = await hookWithLog(1);
    const mine = await hookWithLog(1);
    const theirAttempt = theirs.records[0]!.attempt_id;
    for (const path of [
      hookUrl(mine.acct, mine.hookId, `/deliveries/${theirAttempt}`),
      hookUrl(mine.acct, theirs.hookId, `/deliveries/${theirAttempt}`),
      hookUrl(mine.acct, mine.hookId, `/deliveries/att_000000000000000000000000`),
      hookUrl(mine.acct, mine.hookId, `/deliveries/not-an-id`),
    ]) {
      const res = await api.call('GET', path);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain(theirs.records[0]!.call_id!);
    }
  });

  it("sums up the hook's health over the window", async () => {
    const now = Date.now();
    // Records 1–3 delivered in 12 ms, 4 timed out after 15 s, 5 and 6 held events discarded on a re-enable.
    const { acct, hookId } = await hookWithLog(6, 0, (a, h, n) =>
      attemptAt(a, h, n, {
        attempted_at: new Date(now - n * 60_000).toISOString(),
        ...(n === 4
          ? {
              outcome: 'timed_out',
              status_code: undefined,
              duration_ms: 15000,
              error: 'no response within 15000 ms',
            }
          : n > 4
            ? { outcome: 'discarded', status_code: undefined, duration_ms: 0, error: 'discarded by operator' }
            : {}),
      }),
    );
    const res = await api.call('GET', hookUrl(acct, hookId, '/health?hours=24'));
    expect(res.statusCode).toBe(200);
    const health = res.json();
    // Attempts are the tries made; the discarded events were never tried (in by_outcome, and in dropped).
    expect(health).toMatchObject({
      hours: 24,
      attempts: 4,
      delivered: 3,
      success_rate: 0.75,
      p50_ms: 12,
      p99_ms: 15000,
    });
    expect(health.by_outcome).toEqual({
      delivered: 3,
      failed: 0,
      timed_out: 1,
      error: 0,
      blocked: 0,
      unknown: 0,
      expired: 0,
      discarded: 2,
      erased: 0,
    });
    expect(health.dropped).toEqual({ expired: 0, discarded: 2, erased: 0 });
    expect(health.last_error).toMatchObject({ outcome: 'timed_out', error: 'no response within 15000 ms' });
    expect(health.series).toHaveLength(24);
    // Plain decimal digits only: 1e2, 0x10 and 007 are numbers to a parser, not what the message asks for.
    for (const hours of ['721', '0', '1e2', '0x10', '007', '24.0', '-1']) {
      const bad = await api.call('GET', hookUrl(acct, hookId, `/health?hours=${hours}`));
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details).toEqual([
        { field: 'hours', message: 'must be a whole number from 1 to 720' },
      ]);
    }
  });

  it('sends an attempt again: the same event, queued for that hook only, under the attempt id it answers', async () => {
    const fields = { EventType: 'call_created', call_id: 'call-1', rate: '0.0100' };
    const { acct, hookId, records } = await hookWithLog(1, 0, (a, h, n) =>
      attemptAt(a, h, n, { event_fields: fields }),
    );
    const other = await api.createHook(acct);
    const res = await api.call('POST', hookUrl(acct, hookId, `/deliveries/${records[0]!.attempt_id}/resend`));
    expect(res.statusCode).toBe(202);
    const { attempt_id } = res.json();
    expect(attempt_id).toMatch(/^att_/);
    expect(attempt_id).not.toBe(records[0]!.attempt_id);
    const [job] = await api.jobsOf(hookId);
    expect(job).toMatchObject({
      event: { id: records[0]!.event_id, type: 'call_created', fields },
      trigger: 'manual',
      attemptId: attempt_id,
    });
    expect(await api.jobsOf(other.id)).toEqual([]);
  });

  it('answers 409 for an attempt whose record does not keep its event, and 404 for one of another account', async () => {
    const { acct, hookId, records } = await hookWithLog(1);
    const res = await api.call('POST', hookUrl(acct, hookId, `/deliveries/${records[0]!.attempt_id}/resend`));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('CONFLICT');
    const theirs = await hookWithLog(1, 0, (a, h, n) =>
      attemptAt(a, h, n, { event_fields: { call_id: 'x' } }),
    );
    const stolen = await api.call(
      'POST',
      hookUrl(acct, hookId, `/deliveries/${theirs.records[0]!.attempt_id}/resend`),
    );
    expect(stolen.statusCode).toBe(404);
    expect(await api.jobsOf(hookId)).toEqual([]);
    expect(await api.jobsOf(theirs.hookId)).toEqual([]);
  });

  it('answers 409 saying the event was erased for an attempt whose record an erasure emptied, and queues nothing', async () => {
    const fields = { EventType: 'call_created', call_id: 'call-1', rate: '0.0100' };
    const { acct, hookId, records } = await hookWithLog(1, 0, (a, h, n) =>
      erasedRecord(attemptAt(a, h, n, { event_fields: fields }), new Date(BASE)),
    );
    const res = await api.call('POST', hookUrl(acct, hookId, `/deliveries/${records[0]!.attempt_id}/resend`));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'CONFLICT',
      message: "This attempt's event was erased on request (personal data): it cannot be sent again",
    });
    expect(await api.jobsOf(hookId)).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit', 'must be a whole number from 1 to 200'],
    ['limit=201', 'limit', 'must be a whole number from 1 to 200'],
    ['outcome=lost', 'outcome', expect.stringContaining('must be one of delivered')],
    ['since=yesterday', 'since', 'must be an ISO 8601 time such as 2026-11-24T09:00:00Z'],
    // Read in the answering server's own zone, one query would mean different instants behind a load balancer.
    [
      'until=2026-11-24T09:00:00',
      'until',
      'must name its zone, Z or an offset such as +01:00 (2026-11-24T09:00:00Z): a time without one means different instants on different servers',
    ],
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
    ['cursor=abc', 'cursor', 'is not a cursor this API gave (use next_cursor)'],
    ['since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z', 'until', 'must be later than since'],
    ['limt=5', 'limt', expect.any(String)],
  ])('answers 400 naming the field for %s', async (query, field, message) => {
    const { acct, hookId } = await hookWithLog(1);
    const res = await api.call('GET', hookUrl(acct, hookId, `/deliveries?${query}`));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field, message }]);
  });

  it("answers 404 for another account's hook, showing none of its log, and 401 without the key", async () => {
    const theirs = await hookWithLog(3);
    const mine = await api.createAccount('Mine');
    const res = await api.call('GET', hookUrl(mine, theirs.hookId, '/deliveries'));
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('evt_');
    const health = await api.call('GET', hookUrl(mine, theirs.hookId, '/health'));
    expect(health.statusCode).toBe(404);
    const anonymous = await api.call('GET', hookUrl(theirs.acct, theirs.hookId, '/deliveries'), undefined, {
      key: null,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('evt_');
    expect(
      (await api.call('GET', `/v1/accounts/acct_00000000000000000000/deliveries?call_id=x`)).statusCode,
    ).toBe(404);
  });
});
