import { SAMPLE_CALL_CREATED } from '@hookline/core';
import { callCreated, useApi } from '../test-support/api-harness';

describe('POST /v1/accounts/{acct}/events', () => {
  const api = useApi();
  const eventsUrl = (acct: string) => `/v1/accounts/${acct}/events`;
  const publish = (acct: string, body: unknown) => api.call('POST', eventsUrl(acct), body);
  const raw = (acct: string, text: string | Buffer) =>
    api.call('POST', eventsUrl(acct), undefined, { raw: text });

  async function accountWithHooks(count: number) {
    const acct = await api.createAccount();
    const hooks: string[] = [];
    for (let i = 0; i < count; i += 1) hooks.push((await api.createHook(acct)).id);
    return { acct, hooks };
  }

  describe('happy paths', () => {
    it('queues the event for every hook of the account, exactly as given, and answers 202 {id, hooks}', async () => {
      const { acct, hooks } = await accountWithHooks(2);
      const other = await accountWithHooks(1);
      const res = await publish(acct, { type: 'call_created', data: callCreated() });
      expect(res.statusCode).toBe(202);
      const answer = res.json();
      expect(answer).toEqual({ id: expect.stringMatching(/^evt_/), hooks: [...hooks].sort() });
      for (const hookId of hooks) {
        const jobs = await api.jobsOf(hookId);
        expect(jobs).toHaveLength(1);
        expect(jobs[0]).toMatchObject({
          accountId: acct,
          hookId,
          event: {
            id: answer.id,
            type: 'call_created',
            fields: SAMPLE_CALL_CREATED.fields,
          },
        });
      }
      expect(await api.jobsOf(other.hooks[0]!)).toEqual([]);
    });

    it.each([
      ['"rate": 0.0', '0.0', '0.0'],
      ['"rate": 0.0100', '0.0100', '0.0100'],
      ['"rate": "0.0100"', '"0.0100"', '0.0100'],
      ['"rate": 12', '12', '12'],
      ['"rate": -1.50', '-1.50', '-1.50'],
    ])('keeps the text of %s', async (_label, rateJson, expected) => {
      const { acct, hooks } = await accountWithHooks(1);
      const data = JSON.stringify(callCreated()).replace('"rate":"0.0"', `"rate":${rateJson}`);
      const res = await raw(acct, `{"type":"call_created","data":${data}}`);
      expect(res.statusCode).toBe(202);
      const [job] = await api.jobsOf(hooks[0]!);
      expect(job?.event.fields.rate).toBe(expected);
    });

    it('stamps the current UTC time when the producer gives no date', async () => {
      const { acct, hooks } = await accountWithHooks(1);
      const { date: _omitted, ...data } = callCreated();
      expect((await publish(acct, { type: 'call_created', data })).statusCode).toBe(202);
      const [job] = await api.jobsOf(hooks[0]!);
      expect(job?.event.fields.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}$/);
    });

    it('accepts an event for an account without hooks: 202 with no hooks', async () => {
      const acct = await api.createAccount();
      const res = await publish(acct, { type: 'call_created', data: callCreated() });
      expect(res.statusCode).toBe(202);
      expect(res.json().hooks).toEqual([]);
    });

    it('counts accepted events in the metrics', async () => {
      const { acct } = await accountWithHooks(1);
      await publish(acct, { type: 'call_created', data: callCreated() });
      await publish(acct, { type: 'call_created', data: callCreated() });
      const metrics = await api.call('GET', '/metrics', undefined, { key: null });
      expect(metrics.body).toContain('hookline_events_accepted_total{type="call_created"} 2');
    });
  });

  describe('idempotency', () => {
    it('answers the same request again with 200 and the original answer, queueing nothing more', async () => {
      const { acct, hooks } = await accountWithHooks(2);
      const body = { type: 'call_created', id: 'pbx-call-4711', data: callCreated() };
      const first = await publish(acct, body);
      expect(first.statusCode).toBe(202);
      // The same request, its data keys in another order (a retry from another client library).
      const reordered = Object.fromEntries(Object.entries(body.data).reverse());
      const again = await publish(acct, { ...body, data: reordered });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      for (const hookId of hooks) expect(await api.jobsOf(hookId)).toHaveLength(1);
      const metrics = await api.call('GET', '/metrics', undefined, { key: null });
      expect(metrics.body).toContain('hookline_events_accepted_total{type="call_created"} 1');
    });

    it('answers 409 IDEMPOTENCY_CONFLICT for the same id with a different body, queueing nothing', async () => {
      const { acct, hooks } = await accountWithHooks(2);
      const body = { type: 'call_created', id: 'pbx-call-4712', data: callCreated() };
      expect((await publish(acct, body)).statusCode).toBe(202);
      const other = await publish(acct, { ...body, data: callCreated({ from: 'someone-else' }) });
      expect(other.statusCode).toBe(409);
      expect(other.json().error.code).toBe('IDEMPOTENCY_CONFLICT');
      for (const hookId of hooks) {
        const jobs = await api.jobsOf(hookId);
        expect(jobs).toHaveLength(1);
        expect(jobs[0]?.event.fields.from).toBe('jonas1');
      }
    });

    it('treats another id, or the same id for another account, as a new event', async () => {
      const a = await accountWithHooks(1);
      const b = await accountWithHooks(1);
      const body = { type: 'call_created', id: 'k-1', data: callCreated() };
      expect((await publish(a.acct, body)).statusCode).toBe(202);
      expect((await publish(a.acct, { ...body, id: 'k-2' })).statusCode).toBe(202);
      expect((await publish(b.acct, body)).statusCode).toBe(202);
      expect(await api.jobsOf(a.hooks[0]!)).toHaveLength(2);
      expect(await api.jobsOf(b.hooks[0]!)).toHaveLength(1);
    });
  });

  describe('errors: nothing is queued', () => {
    const good = () => ({ type: 'call_created', data: callCreated() });
    it.each([
      ['an unknown type', { ...good(), type: 'call_ended' }, ['type']],
      ['no type', { data: callCreated() }, ['type']],
      ['no data', { type: 'call_created' }, ['data']],
      ['an id with spaces', { ...good(), id: 'has space' }, ['id']],
      ['an empty id', { ...good(), id: '' }, ['id']],
      ['an unknown top-level field', { ...good(), extra: 1 }, ['extra']],
      ['an unknown data field', { ...good(), data: callCreated({ colour: 'red' }) }, ['data.colour']],
      ['an empty call_id', { ...good(), data: callCreated({ call_id: '' }) }, ['data.call_id']],
      ['a numeric from', { ...good(), data: callCreated({ from: 1234 }) }, ['data.from']],
      ['a null from_cnam', { ...good(), data: callCreated({ from_cnam: null }) }, ['data.from_cnam']],
      ['no to', { ...good(), data: callCreated({ to: undefined }) }, ['data.to']],
      ['no direction', { ...good(), data: callCreated({ direction: undefined }) }, ['data.direction']],
      ['no rate', { ...good(), data: callCreated({ rate: undefined }) }, ['data.rate']],
      ['a rate that is not a number', { ...good(), data: callCreated({ rate: 'free' }) }, ['data.rate']],
      ['a rate with an exponent', { ...good(), data: callCreated({ rate: '1e5' }) }, ['data.rate']],
      ['NUL in a field', { ...good(), data: callCreated({ from_cnam: 'Jonas\u0000' }) }, ['data.from_cnam']],
      [
        'a control character in a field',
        { ...good(), data: callCreated({ to: '123\u001b[2J' }) },
        ['data.to'],
      ],
      [
        'a date with a zone',
        { ...good(), data: callCreated({ date: '2016-03-01T08:31:55Z' }) },
        ['data.date'],
      ],
      [
        'an impossible date',
        { ...good(), data: callCreated({ date: '2016-02-30T08:31:55.0000000' }) },
        ['data.date'],
      ],
      [
        'several bad fields',
        { type: 'call_created', data: callCreated({ call_id: '', rate: 'x', date: 'today' }) },
        ['data.call_id', 'data.rate', 'data.date'],
      ],
      // The data's fields depend on the kind, so with a type that names none only the type is judged.
      [
        'an unknown type',
        { type: 'x', data: callCreated({ call_id: '', rate: 'x', date: 'today' }) },
        ['type'],
      ],
    ])('answers 400 for %s, naming each bad field', async (_label, body, fields) => {
      const { acct, hooks } = await accountWithHooks(1);
      const res = await publish(acct, body);
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(new Set(error.details.map((d: { field: string }) => d.field))).toEqual(new Set(fields));
      expect(await api.queues.waitingCount(hooks[0]!)).toBe(0);
      expect(await api.jobsOf(hooks[0]!)).toEqual([]);
    });

    it.each([
      ['truncated JSON', '{"type":"call_created","data":{'],
      ['a trailing comma', '{"type":"call_created",}'],
      ['a duplicate key with two values', '{"type":"call_created","type":"call_ended","data":{}}'],
      ['not JSON at all', 'type=call_created'],
    ])('answers 400 INVALID_JSON for %s', async (_label, text) => {
      const { acct, hooks } = await accountWithHooks(1);
      const res = await raw(acct, text);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('INVALID_JSON');
      expect(await api.jobsOf(hooks[0]!)).toEqual([]);
    });

    it('answers 400 INVALID_JSON for bytes that are not UTF-8, and queues nothing', async () => {
      const { acct, hooks } = await accountWithHooks(1);
      const body = Buffer.concat([
        Buffer.from(
          '{"type":"call_created","data":{"call_id":"c1","direction":"outbound","from":"a","from_cnam":"A',
        ),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('B","to":"b","rate":"0.0"}}'),
      ]);
      const res = await raw(acct, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'INVALID_JSON',
        message: expect.stringContaining('UTF-8'),
      });
      expect(await api.jobsOf(hooks[0]!)).toEqual([]);
      // The same text as UTF-8 is taken as sent.
      const good = await raw(acct, body.toString('latin1'));
      expect(good.statusCode).toBe(202);
    });

    it('answers 400 for an empty body', async () => {
      const { acct } = await accountWithHooks(1);
      const res = await raw(acct, '');
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([{ field: '(body)', message: 'is required' }]);
    });

    it('answers 404 for an unknown account and queues nothing', async () => {
      const { hooks } = await accountWithHooks(1);
      const before = await api.keyCount();
      const res = await publish('acct_00000000000000000000', good());
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
      expect(await api.jobsOf(hooks[0]!)).toEqual([]);
      expect(await api.keyCount()).toBe(before);
    });

    it('answers 401 without the operator key and queues nothing', async () => {
      const { acct, hooks } = await accountWithHooks(1);
      for (const key of [null, 'not-the-key', API_KEY_WITH_TYPO]) {
        const res = await api.call('POST', eventsUrl(acct), good(), { key });
        expect(res.statusCode).toBe(401);
      }
      expect(await api.jobsOf(hooks[0]!)).toEqual([]);
    });
  });
});

const API_KEY_WITH_TYPO = 'test-operator-key-0123456789abcdeF';
