import type { AttemptRecord } from '@hookline/core';
import { useApi } from '../test-support/api-harness';
import { attemptAt } from '../test-support/attempt-records';

// GET /v1/accounts/{acct}/deliveries/{attempt_id} (product.md §10): one attempt of any hook of the account in full,
// also once its hook is deleted (its attempts stay in the account's log), with the body of the hook's own
// …/deliveries/{attempt_id}; another account's attempt is a 404. Real Redis and the real PostgreSQL server.

describe("one attempt from the account's log", () => {
  const api = useApi();
  const accountUrl = (acct: string, attemptId: string) => `/v1/accounts/${acct}/deliveries/${attemptId}`;
  const hookUrl = (acct: string, hook: string, attemptId: string) =>
    `/v1/accounts/${acct}/hooks/${hook}/deliveries/${attemptId}`;

  /** The attempt as the API shows it in full: the response grouped, no account. */
  const detail = (r: AttemptRecord) => {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { account_id, response_excerpt, ...rest } = r;
    return { ...rest, response: { status_code: 200, body_excerpt: 'ok' } };
  };

  it("answers a deleted hook's attempt with the body its hook's route gave, written and pending alike", async () => {
    const acct = await api.createAccount();
    const [gone, kept] = [(await api.createHook(acct)).id, (await api.createHook(acct)).id];
    const written = attemptAt(acct, gone, 1);
    const pending = attemptAt(acct, kept, 2);
    await api.history.writer.write([written]);
    await api.deps.outbox.append(kept, [pending]);

    for (const [r, hook] of [
      [written, gone],
      [pending, kept],
    ] as const) {
      const byHook = await api.call('GET', hookUrl(acct, hook, r.attempt_id));
      const byAccount = await api.call('GET', accountUrl(acct, r.attempt_id));
      expect(byAccount.statusCode).toBe(200);
      expect(byAccount.json()).toEqual(detail(r));
      expect(byAccount.json().hook_id).toBe(hook);
      expect(byAccount.body).toBe(byHook.body);
    }

    expect((await api.call('DELETE', `/v1/accounts/${acct}/hooks/${gone}`)).statusCode).toBe(204);
    expect((await api.call('GET', hookUrl(acct, gone, written.attempt_id))).statusCode).toBe(404);
    const afterDelete = await api.call('GET', accountUrl(acct, written.attempt_id));
    expect(afterDelete.statusCode).toBe(200);
    expect(afterDelete.json()).toEqual(detail(written));
  });

  it("answers 404 for another account's attempt, an unknown or malformed one, and an unknown account", async () => {
    const mine = await api.createAccount('Mine');
    await api.createHook(mine);
    const theirs = await api.createAccount('Theirs');
    const theirHook = (await api.createHook(theirs)).id;
    const written = attemptAt(theirs, theirHook, 1, { call_id: 'their-call' });
    const pending = attemptAt(theirs, theirHook, 2, { call_id: 'their-call' });
    await api.history.writer.write([written]);
    await api.deps.outbox.append(theirHook, [pending]);
    expect((await api.call('GET', accountUrl(theirs, written.attempt_id))).statusCode).toBe(200);

    for (const [acct, attemptId, message] of [
      [mine, written.attempt_id, 'Attempt not found'],
      [mine, pending.attempt_id, 'Attempt not found'],
      [mine, 'att_000000000000000000000000', 'Attempt not found'],
      [mine, 'not-an-id', 'Attempt not found'],
      ['acct_00000000000000000000', written.attempt_id, 'Account not found'],
    ]) {
      const res = await api.call('GET', accountUrl(acct!, attemptId!));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message } });
      expect(res.body).not.toContain('their-call');
    }
  });
});
