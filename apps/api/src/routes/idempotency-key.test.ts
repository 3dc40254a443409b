import { startReceiver, waitUntil, type ReceivedRequest } from '@hookline/testing';
import { callCreated, useApi, type Answer } from '../test-support/api-harness';
import { startWorker } from '../test-support/api-worker';
import { attemptAt } from '../test-support/attempt-records';

// Idempotency-Key on the POSTs that send something to an endpoint (test, send-again), as Stripe has it: the
// same key on the same route of the same account answers the first request's status and body again and
// sends nothing; the endpoint (a real receiver, fed by the real worker process) gets one request.

const KEY = 'retry-7f3c9e1a-4b2d';
const withKey = (key: string | string[]) => ({ headers: { 'idempotency-key': key } });

const conflict = {
  error: {
    code: 'IDEMPOTENCY_CONFLICT',
    message:
      'This Idempotency-Key was already used for a different request (another hook, attempt or body); use a ' +
      'new key for a new request',
  },
};

const badKey = (message: string) => ({
  error: {
    code: 'VALIDATION_FAILED',
    message: 'Invalid request: Idempotency-Key',
    details: [{ field: 'Idempotency-Key', message }],
  },
});

const fields = { EventType: 'call_created', call_id: 'call-1', rate: '0.0100' };

describe('Idempotency-Key', () => {
  const api = useApi();
  const hookUrl = (acct: string, hook: string, rest = '') => `/v1/accounts/${acct}/hooks/${hook}${rest}`;

  /** An account with a signed hook (each request names its event in webhook-id) on a receiver, and a worker. */
  async function endpoint() {
    const receiver = api.ctx.closeLater(await startReceiver());
    const acct = await api.createAccount();
    const hook = await api.createHook(acct, { url: receiver.url('/hook'), signing: true });
    await startWorker(api);
    return { receiver, acct, hookId: hook.id };
  }

  /**
   * The event ids of the requests the endpoint got, up to a closing event published now and waited for: a hook
   * gets its events one at a time, in order, so everything queued before it has arrived by then.
   */
  async function receivedBeforeClosing(acct: string, receiver: { requests: ReceivedRequest[] }) {
    const closing = await api.call('POST', `/v1/accounts/${acct}/events`, {
      type: 'call_created',
      data: callCreated({ call_id: 'closing' }),
    });
    expect(closing.statusCode).toBe(202);
    const closingId = closing.json().id as string;
    await waitUntil(
      () => receiver.requests.some((r) => r.headers['webhook-id'] === closingId),
      'the closing event to reach the endpoint',
    );
    const ids = receiver.requests.map((r) => r.headers['webhook-id']);
    return { before: ids.slice(0, ids.indexOf(closingId)), closingId, all: ids };
  }

  /** A record of the hook's that keeps its event, so it can be sent again. */
  async function sendable(acct: string, hookId: string, n: number) {
    const record = attemptAt(acct, hookId, n, { event_fields: { ...fields, call_id: `call-${n}` } });
    await api.history.writer.write([record]);
    return record;
  }

  const sameAnswer = (a: Answer, b: Answer) => {
    expect([b.statusCode, b.body]).toEqual([a.statusCode, a.body]);
  };

  const auditActions = async (acct: string, action: string) =>
    (await api.call('GET', `/v1/accounts/${acct}/audit`))
      .json()
      .data.filter((e: { action: string }) => e.action === action);

  describe('POST …/test', () => {
    it('answers a retry with the first 202 and body, and the endpoint gets one test', async () => {
      const { receiver, acct, hookId } = await endpoint();
      const first = await api.call('POST', hookUrl(acct, hookId, '/test'), undefined, withKey(KEY));
      expect(first.statusCode).toBe(202);
      expect(first.json()).toEqual({ id: expect.stringMatching(/^evt_/) });
      // An empty object is the same request as no body.
      const retry = await api.call('POST', hookUrl(acct, hookId, '/test'), {}, withKey(KEY));
      sameAnswer(first, retry);

      const { before, closingId, all } = await receivedBeforeClosing(acct, receiver);
      expect(before).toEqual([first.json().id]);
      expect(all).toEqual([first.json().id, closingId]);
      expect(await auditActions(acct, 'hook.tested')).toHaveLength(1);
    });

    it('sends one test for two identical requests at the same moment, and answers both alike', async () => {
      const { receiver, acct, hookId } = await endpoint();
      const send = () => api.call('POST', hookUrl(acct, hookId, '/test'), undefined, withKey(KEY));
      const [a, b] = await Promise.all([send(), send()]);
      expect(a.statusCode).toBe(202);
      sameAnswer(a, b);
      const { before } = await receivedBeforeClosing(acct, receiver);
      expect(before).toEqual([a.json().id]);
      expect(await auditActions(acct, 'hook.tested')).toHaveLength(1);
    });

    it('answers 409 IDEMPOTENCY_CONFLICT for the same key on another hook, queuing nothing there', async () => {
      const acct = await api.createAccount();
      const [one, two] = [await api.createHook(acct), await api.createHook(acct)];
      expect(
        (await api.call('POST', hookUrl(acct, one.id, '/test'), undefined, withKey(KEY))).statusCode,
      ).toBe(202);
      const other = await api.call('POST', hookUrl(acct, two.id, '/test'), undefined, withKey(KEY));
      expect([other.statusCode, other.json()]).toEqual([409, conflict]);
      expect(await api.jobsOf(one.id)).toHaveLength(1);
      expect(await api.jobsOf(two.id)).toEqual([]);
      // Scoped to the account and the route: the same key is new in another account.
      const elsewhere = await api.createAccount('Elsewhere');
      const theirs = await api.createHook(elsewhere);
      const fresh = await api.call('POST', hookUrl(elsewhere, theirs.id, '/test'), undefined, withKey(KEY));
      expect(fresh.statusCode).toBe(202);
      expect(fresh.json().id).not.toBe((await api.jobsOf(one.id))[0]!.event.id);
    });

    it.each([
      ['longer than 255 characters', 'k'.repeat(256), 'must be 1 to 255 characters'],
      ['empty', '', 'must be 1 to 255 characters'],
      ['with a tab', 'retry\t1', 'must not contain control characters'],
      ['with a C1 control character', 'retry\u00851', 'must not contain control characters'],
      ['given twice', ['retry-1', 'retry-2'], 'must be given once'],
    ])('refuses a key %s with 400 naming the header, queuing nothing', async (_label, key, message) => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const res = await api.call('POST', hookUrl(acct, hook.id, '/test'), undefined, withKey(key));
      expect([res.statusCode, res.json()]).toEqual([400, badKey(message)]);
      expect(await api.jobsOf(hook.id)).toEqual([]);
    });

    it('takes any other text of up to 255 characters as a key, each its own', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      // A header's bytes as a client sends UTF-8 text (Node's client takes them as a Latin-1 string).
      const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
      // UTF-8 keys are read as UTF-8, and counted in characters: `ключ` and `鍵` hold bytes that read as C1
      // controls in Latin-1, and 252 Cyrillic letters are 504 bytes.
      const keys = [
        'k'.repeat(255),
        utf8('ключ'.repeat(63)),
        'clé {x} "y" * 1',
        utf8('鍵'),
        utf8('ключ'),
        '0f8c1b2e-7d6a-4c5e-9b3f-2a1d0e9c8b7a',
      ];
      for (const key of [...keys, ...keys]) {
        const res = await api.call('POST', hookUrl(acct, hook.id, '/test'), undefined, withKey(key));
        expect([key, res.statusCode]).toEqual([key, 202]);
      }
      expect(await api.jobsOf(hook.id)).toHaveLength(keys.length);
    });
  });

  describe('POST …/deliveries/{attempt_id}/resend', () => {
    it('answers a retry and two identical requests at once with their first answer; the endpoint gets one copy each', async () => {
      const { receiver, acct, hookId } = await endpoint();
      const record = await sendable(acct, hookId, 1);
      const resend = (key: string) =>
        api.call(
          'POST',
          hookUrl(acct, hookId, `/deliveries/${record.attempt_id}/resend`),
          undefined,
          withKey(key),
        );

      const first = await resend(KEY);
      expect(first.statusCode).toBe(202);
      const { attempt_id } = first.json();
      expect(attempt_id).toMatch(/^att_/);
      sameAnswer(first, await resend(KEY));
      // Another key is another request: one more copy, however many times it is sent at once.
      const [a, b] = await Promise.all([resend('retry-2'), resend('retry-2')]);
      expect(a.statusCode).toBe(202);
      sameAnswer(a, b);
      expect(a.json().attempt_id).not.toBe(attempt_id);

      const { before } = await receivedBeforeClosing(acct, receiver);
      // A send-again carries its event's id: the same event, twice in all.
      expect(before).toEqual([record.event_id, record.event_id]);
      // Each answered attempt id is the one its copy is recorded under.
      for (const id of [attempt_id, a.json().attempt_id])
        await waitUntil(
          async () => (await api.call('GET', hookUrl(acct, hookId, `/deliveries/${id}`))).statusCode === 200,
          `the attempt ${id} to be recorded`,
        );
      expect(await auditActions(acct, 'hook.resent')).toHaveLength(2);
    });

    it('answers 409 IDEMPOTENCY_CONFLICT for the same key on another attempt, queuing nothing; the test route’s keys are its own', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const [one, two] = [await sendable(acct, hook.id, 1), await sendable(acct, hook.id, 2)];
      const resend = (attemptId: string) =>
        api.call('POST', hookUrl(acct, hook.id, `/deliveries/${attemptId}/resend`), undefined, withKey(KEY));
      expect((await resend(one.attempt_id)).statusCode).toBe(202);
      const other = await resend(two.attempt_id);
      expect([other.statusCode, other.json()]).toEqual([409, conflict]);
      expect((await api.jobsOf(hook.id)).map((j) => j.event.id)).toEqual([one.event_id]);
      // The same key on the test route is another key.
      expect(
        (await api.call('POST', hookUrl(acct, hook.id, '/test'), undefined, withKey(KEY))).statusCode,
      ).toBe(202);
    });

    it('refuses a bad key with 400 naming the header, queuing nothing', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const record = await sendable(acct, hook.id, 1);
      const res = await api.call(
        'POST',
        hookUrl(acct, hook.id, `/deliveries/${record.attempt_id}/resend`),
        undefined,
        withKey('k'.repeat(256)),
      );
      expect([res.statusCode, res.json()]).toEqual([400, badKey('must be 1 to 255 characters')]);
      expect(await api.jobsOf(hook.id)).toEqual([]);
    });
  });

  // A client retrying a publish or a creation with a key, as Stripe's API lets it, got a second event or a
  // second hook without a word: the POSTs that do not honour the header refuse it, creating nothing.
  describe('on the other POSTs', () => {
    it('is refused with 400 naming the header, a publish told to give its event an id', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const before = await api.keyCount();
      const publish = await api.call(
        'POST',
        `/v1/accounts/${acct}/events`,
        { type: 'call_created', data: callCreated() },
        withKey(KEY),
      );
      expect([publish.statusCode, publish.json()]).toEqual([
        400,
        badKey(
          'is not taken when publishing: give the event an "id" instead (the same id within 24 hours answers ' +
            'the first request again and queues nothing)',
        ),
      ]);
      const created = await api.call(
        'POST',
        `/v1/accounts/${acct}/hooks`,
        { url: 'https://hooks.example.com/again', format: 'json' },
        withKey(KEY),
      );
      expect([created.statusCode, created.json()]).toEqual([
        400,
        badKey('is not taken by this route: only a test and a send-again take it'),
      ]);
      const account = await api.call('POST', '/v1/accounts', { name: 'Twice' }, withKey(KEY));
      expect(account.statusCode).toBe(400);
      expect(await api.keyCount()).toBe(before);
      expect(await api.jobsOf(hook.id)).toEqual([]);
      // Reads and changes are idempotent as they are: a key there changes nothing and is not refused.
      const read = await api.call('GET', `/v1/accounts/${acct}/hooks/${hook.id}`, undefined, withKey(KEY));
      expect(read.statusCode).toBe(200);
    });
  });
});
