import { MAX_HOOK_HEADERS } from '@hookline/core';
import { useApi } from '../test-support/api-harness';

// Per-hook extra headers (product.md §17): kept as given, shown as sent, refused with the header named.
describe('hook extra headers', () => {
  const api = useApi();
  const hooksUrl = (acct: string) => `/v1/accounts/${acct}/hooks`;
  const base = { url: 'https://www.example.com/webhook', format: 'json' };

  it('keeps them on create, shows them, replaces them on update and removes them with {} or null', async () => {
    const acct = await api.createAccount();
    const created = await api.call('POST', hooksUrl(acct), {
      ...base,
      headers: { 'X-Api-Key': 'k_123', 'X-Tenant': 'acme eu-1' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().headers).toEqual({ 'X-Api-Key': 'k_123', 'X-Tenant': 'acme eu-1' });
    const hookUrl = `${hooksUrl(acct)}/${created.json().id}`;
    const updated = await api.call('PATCH', hookUrl, { headers: { 'X-Tenant': 'acme eu-2' } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().headers).toEqual({ 'X-Tenant': 'acme eu-2' });
    const cleared = await api.call('PATCH', hookUrl, { headers: {} });
    expect(cleared.json()).not.toHaveProperty('headers');
    expect((await api.call('GET', hookUrl)).json()).not.toHaveProperty('headers');
    // null removes them too, as it does a description, a filter or a client certificate.
    await api.call('PATCH', hookUrl, { headers: { 'X-Tenant': 'acme eu-3' } });
    const nulled = await api.call('PATCH', hookUrl, { headers: null });
    expect(nulled.statusCode).toBe(200);
    expect((await api.call('GET', hookUrl)).json()).not.toHaveProperty('headers');
  });

  it.each([
    [
      'Authorization',
      { Authorization: 'Bearer x' },
      'headers.Authorization',
      "cannot be given here: set credentials as the hook's authentication",
    ],
    [
      'Content-Type in other case',
      { 'content-TYPE': 'text/plain' },
      'headers.content-TYPE',
      'is set on every delivery and cannot be given',
    ],
    ['Host', { Host: 'evil.example.com' }, 'headers.Host', 'is set on every delivery and cannot be given'],
    [
      'the event-type header',
      { 'x-service-event-type': 'x' },
      'headers.x-service-event-type',
      'is set on every delivery and cannot be given',
    ],
    [
      'a signature header',
      { 'Webhook-Signature': 'v1,x' },
      'headers.Webhook-Signature',
      'is set on every delivery and cannot be given',
    ],
    [
      "a header the svix library reads in place of hookline's signature",
      { 'Svix-Id': 'msg_migrated' },
      'headers.Svix-Id',
      "is read as the delivery's signature by receivers' svix library",
    ],
    [
      'the trace context (HOOKLINE_TRACE_PROPAGATE sets it)',
      { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      'headers.traceparent',
      'is set on every delivery and cannot be given',
    ],
    [
      'Transfer-Encoding',
      { 'Transfer-Encoding': 'chunked' },
      'headers.Transfer-Encoding',
      'says how a request travels (a hop-by-hop or framing header)',
    ],
    // Never sent by hookline, but a receiver given it would wait for a 100 Continue that never comes.
    ['Expect', { Expect: '100-continue' }, 'headers.Expect', 'says how a request travels'],
    // The body is sent as is: a receiver told it is gzip would try to unpack it and refuse every delivery.
    [
      'Content-Encoding',
      { 'Content-Encoding': 'gzip' },
      'headers.Content-Encoding',
      'says how a request travels',
    ],
    // Ten such names would pass receivers' header limits (Node.js: 16 KiB) and fail every delivery with 431.
    [
      'a name over 256 characters',
      { [`X-${'n'.repeat(255)}`]: 'a' },
      `headers.X-${'n'.repeat(255)}`,
      'at most 256',
    ],
    ['a line break in a value', { 'X-A': 'a\r\nX-B: b' }, 'headers.X-A', 'visible ASCII'],
    ['a non-ASCII value', { 'X-A': 'Jönas' }, 'headers.X-A', 'visible ASCII'],
    ['a space in a name', { 'X A': 'a' }, 'headers.X A', 'is not a header name'],
    ['a name given twice', { 'X-A': 'a', 'x-a': 'b' }, 'headers.x-a', 'given twice'],
    ['an empty value', { 'X-A': '' }, 'headers.X-A', 'visible ASCII'],
  ])('refuses %s with a 400 naming the header', async (_name, headers, field, words) => {
    const acct = await api.createAccount();
    const res = await api.call('POST', hooksUrl(acct), { ...base, headers });
    expect(res.statusCode).toBe(400);
    const details = res.json().error.details as { field: string; message: string }[];
    expect(details).toEqual([{ field, message: expect.stringContaining(words) }]);
    expect((await api.call('GET', hooksUrl(acct))).json().data).toEqual([]);
  });

  // JSON.parse keeps "__proto__" as a key; a record built from it would drop it, and the update would then
  // replace the hook's headers with none.
  it('refuses a header named __proto__ by name, on create and update, changing nothing', async () => {
    const acct = await api.createAccount();
    const refused = [{ field: 'headers.__proto__', message: 'cannot be a header name here' }];
    const create = await api.call('POST', hooksUrl(acct), undefined, {
      raw: JSON.stringify({ ...base, headers: {} }).replace(
        '"headers":{}',
        '"headers":{"__proto__":{"evil":1}}',
      ),
    });
    expect([create.statusCode, create.json().error.details]).toEqual([400, refused]);
    expect((await api.call('GET', hooksUrl(acct))).json().data).toEqual([]);

    const hook = await api.createHook(acct, { headers: { 'X-A': 'a' } });
    const update = await api.call('PATCH', `${hooksUrl(acct)}/${hook.id}`, undefined, {
      raw: '{"headers":{"__proto__":"v"}}',
    });
    expect([update.statusCode, update.json().error.details]).toEqual([400, refused]);
    expect((await api.call('GET', `${hooksUrl(acct)}/${hook.id}`)).json().headers).toEqual({ 'X-A': 'a' });
  });

  it(`refuses more than ${MAX_HOOK_HEADERS}`, async () => {
    const acct = await api.createAccount();
    const headers = Object.fromEntries(
      Array.from({ length: MAX_HOOK_HEADERS + 1 }, (_, i) => [`X-H${i}`, 'v']),
    );
    const res = await api.call('POST', hooksUrl(acct), { ...base, headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      { field: 'headers', message: expect.stringContaining(`at most ${MAX_HOOK_HEADERS} headers`) },
    ]);
  });
});

// HOOKLINE_EVENT_TYPE_HEADER renamed: hookline sets the new name, so that is refused and the default is free.
describe('hook extra headers with the event-type header renamed', () => {
  const api = useApi({ settings: { HOOKLINE_EVENT_TYPE_HEADER: 'X-Acme-Event' } });
  const hooksUrl = (acct: string) => `/v1/accounts/${acct}/hooks`;
  const base = { url: 'https://www.example.com/webhook', format: 'json' };

  it('refuses the configured name on create and update', async () => {
    const acct = await api.createAccount();
    const created = await api.call('POST', hooksUrl(acct), { ...base, headers: { 'x-acme-event': 'x' } });
    expect(created.statusCode).toBe(400);
    expect(created.json().error.details).toEqual([
      {
        field: 'headers.x-acme-event',
        message: expect.stringContaining('is set on every delivery and cannot be given'),
      },
    ]);
    const hook = await api.createHook(acct);
    const updated = await api.call('PATCH', `${hooksUrl(acct)}/${hook.id}`, {
      headers: { 'X-Acme-Event': 'x' },
    });
    expect(updated.statusCode).toBe(400);
    expect(updated.json().error.details).toEqual([
      {
        field: 'headers.X-Acme-Event',
        message: expect.stringContaining('is set on every delivery and cannot be given'),
      },
    ]);
  });

  it('keeps the default name as an ordinary header', async () => {
    const acct = await api.createAccount();
    const created = await api.call('POST', hooksUrl(acct), {
      ...base,
      headers: { 'X-Service-Event-Type': 'legacy' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().headers).toEqual({ 'X-Service-Event-Type': 'legacy' });
  });

  it('does not show a header stored under the name before it was configured: it is not sent', async () => {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct, { headers: { 'X-Tenant': 'acme' } });
    const other = await api.createHook(acct, { headers: { 'X-Tenant': 'acme' } });
    // As a hook given the header while the event-type header had its default name has it stored.
    const record = (id: string) => api.keys.hookRecord(id);
    await api.ctx.redis.hset(
      record(hook.id),
      'headers',
      JSON.stringify({ 'X-Tenant': 'acme', 'x-acme-event': 'abc' }),
    );
    await api.ctx.redis.hset(record(other.id), 'headers', JSON.stringify({ 'X-Acme-Event': 'abc' }));
    expect((await api.call('GET', `${hooksUrl(acct)}/${hook.id}`)).json().headers).toEqual({
      'X-Tenant': 'acme',
    });
    expect((await api.call('GET', `${hooksUrl(acct)}/${other.id}`)).json()).not.toHaveProperty('headers');
    const listed = (await api.call('GET', hooksUrl(acct))).json().data as { headers?: unknown }[];
    expect(listed.map((h) => h.headers)).toEqual([{ 'X-Tenant': 'acme' }, undefined]);
  });
});
