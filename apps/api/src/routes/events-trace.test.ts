import { callCreated, useApi } from '../test-support/api-harness';

// W3C trace context on a publish (product.md §19): joined when valid, ignored when not — never a 400.
describe('POST /v1/accounts/{acct}/events with traceparent / tracestate', () => {
  const api = useApi();
  const TRACE = '0af7651916cd43dd8448eb211c80319c';
  const PARENT = `00-${TRACE}-b7ad6b7169203331-01`;

  async function accountWithHook() {
    const acct = await api.createAccount();
    return { acct, hook: (await api.createHook(acct)).id };
  }
  const publish = (acct: string, headers: Record<string, string>) =>
    api.call(
      'POST',
      `/v1/accounts/${acct}/events`,
      { type: 'call_created', data: callCreated() },
      { headers },
    );

  it('carries the headers with the event into its job', async () => {
    const { acct, hook } = await accountWithHook();
    const res = await publish(acct, { traceparent: PARENT, tracestate: 'vendor=opaque' });
    expect(res.statusCode).toBe(202);
    expect(await api.jobsOf(hook)).toEqual([
      expect.objectContaining({ traceparent: PARENT, tracestate: 'vendor=opaque' }),
    ]);
  });

  it.each([
    ['a malformed traceparent', { traceparent: `00-${TRACE}-b7ad6b7169203331` }],
    ['an all-zero trace id', { traceparent: `00-${'0'.repeat(32)}-b7ad6b7169203331-01` }],
    ['a tracestate alone', { tracestate: 'vendor=opaque' }],
  ])('accepts the event with %s, and carries no trace', async (_why, headers) => {
    const { acct, hook } = await accountWithHook();
    const res = await publish(acct, headers);
    expect(res.statusCode).toBe(202);
    const [job] = await api.jobsOf(hook);
    expect(job?.event.id).toBe(res.json().id);
    expect(job).not.toHaveProperty('traceparent');
    expect(job).not.toHaveProperty('tracestate');
  });
});
