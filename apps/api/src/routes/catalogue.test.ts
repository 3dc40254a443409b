import { API_KEY, callCreated, expectAbsent, useApi } from '../test-support/api-harness';

// The API with an operator catalogue: the kinds, publishing them, subscriptions and signing secrets.
const CATALOG = JSON.stringify({
  kinds: [
    {
      name: 'call_ended',
      description: 'A call ended',
      fields: [
        { name: 'call_id', type: 'string' },
        { name: 'duration', type: 'decimal' },
        { name: 'date', type: 'timestamp', optional: true },
      ],
    },
  ],
});

describe('event kinds, subscriptions and signing through the API', () => {
  const api = useApi({ eventCatalog: CATALOG });
  const hooksUrl = (acct: string) => `/v1/accounts/${acct}/hooks`;
  const publish = (acct: string, body: unknown) => api.call('POST', `/v1/accounts/${acct}/events`, body);
  const ended = { type: 'call_ended', data: { call_id: 'c-1', duration: 12.5 } };

  describe('happy paths', () => {
    it('lists every kind with its fields in body order (GET /v1/event-types)', async () => {
      const res = await api.call('GET', '/v1/event-types');
      expect(res.statusCode).toBe(200);
      const kinds = (res.json() as { data: { name: string; source: string; fields: unknown[] }[] }).data;
      expect(kinds.map((k) => [k.name, k.source])).toEqual([
        ['call_created', 'producer'],
        ['hook.failing', 'hookline'],
        ['hook.suspended', 'hookline'],
        ['hook.enabled', 'hookline'],
        ['hook.stuck', 'hookline'],
        ['call_ended', 'producer'],
      ]);
      expect(kinds[5]).toEqual({
        name: 'call_ended',
        description: 'A call ended',
        source: 'producer',
        built_in: false,
        fields: [
          { name: 'call_id', type: 'string', optional: false },
          { name: 'duration', type: 'decimal', optional: false },
          { name: 'date', type: 'timestamp', optional: true },
        ],
      });
    });

    it('publishes a catalogue kind only to the hooks subscribed to it, decimal text and layout kept', async () => {
      const acct = await api.createAccount();
      const all = await api.createHook(acct);
      const endedOnly = await api.createHook(acct, { events: ['call_ended'] });
      const createdOnly = await api.createHook(acct, { events: ['call_created'] });
      const res = await api.call('POST', `/v1/accounts/${acct}/events`, undefined, {
        raw: '{"type":"call_ended","data":{"call_id":"c-1","duration":12.50}}',
      });
      expect(res.statusCode).toBe(202);
      expect(res.json().hooks).toEqual([all.id, endedOnly.id].sort());
      const [job] = await api.jobsOf(endedOnly.id);
      expect(job?.event).toMatchObject({
        type: 'call_ended',
        fields: { EventType: 'call_ended', call_id: 'c-1', duration: '12.50', date: expect.any(String) },
        layout: [
          ['EventType', 'string'],
          ['call_id', 'string'],
          ['duration', 'decimal'],
          ['date', 'timestamp'],
        ],
      });
      expect(job!.event.fields.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}$/);
      expect(await api.jobsOf(createdOnly.id)).toEqual([]);
    });

    it('answers 202 with no hooks for a kind no hook wants, and queues nothing', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct, { events: ['call_created'] });
      const res = await publish(acct, ended);
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ id: expect.stringMatching(/^evt_/), hooks: [] });
      expect(await api.jobsOf(hook.id)).toEqual([]);
    });

    it('shows and changes a subscription', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct, { events: ['call_ended'] });
      const url = `${hooksUrl(acct)}/${hook.id}`;
      expect((await api.call('GET', url)).json().events).toEqual(['call_ended']);
      const res = await api.call('PATCH', url, { events: 'all' });
      expect(res.json().events).toBe('all');
      expect((await publish(acct, { type: 'call_created', data: callCreated() })).json().hooks).toEqual([
        hook.id,
      ]);
    });

    it('gives the signing secret once at creation and once per rotation, never in reads', async () => {
      const acct = await api.createAccount();
      const created = await api.call('POST', hooksUrl(acct), {
        url: 'https://hooks.example.com/in',
        format: 'form',
        signing: true,
      });
      expect(created.statusCode).toBe(201);
      const { id, signing_secret: secret } = created.json();
      expect(secret).toMatch(/^whsec_/);
      expect(created.json().signing).toBe(true);
      const url = `${hooksUrl(acct)}/${id}`;
      expectAbsent(await api.call('GET', url), secret);
      expectAbsent(await api.call('GET', hooksUrl(acct)), secret);
      const rotated = await api.call('POST', `${url}/signing-secret/rotate`);
      expect(rotated.statusCode).toBe(200);
      expect(rotated.json().signing_secret).toMatch(/^whsec_/);
      expect(rotated.json().signing_secret).not.toBe(secret);
      expect(rotated.json().signing_previous_expires_at).toEqual(expect.any(String));
      expectAbsent(await api.call('GET', url), rotated.json().signing_secret);
    });
  });

  describe('errors', () => {
    it('refuses an unknown kind in events, naming the field, and creates nothing', async () => {
      const acct = await api.createAccount();
      const res = await api.call('POST', hooksUrl(acct), {
        url: 'https://hooks.example.com/in',
        format: 'json',
        events: ['call_ended', 'call_deleted', 'hook.suspended'],
        signing: 'yes',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual([
        'events.1',
        'events.2',
        'signing',
      ]);
      expect((await api.call('GET', hooksUrl(acct))).json().data).toEqual([]);
    });

    it('refuses operator notice kinds and malformed catalogue events from producers', async () => {
      const acct = await api.createAccount();
      const notice = await publish(acct, { type: 'hook.suspended', data: {} });
      expect(notice.statusCode).toBe(400);
      expect(notice.json().error.details).toEqual([
        {
          field: 'type',
          message:
            '"hook.suspended" is a notice hookline sends itself and cannot be published; type must be one of "call_created", "call_ended"',
        },
      ]);
      const bad = await publish(acct, { type: 'call_ended', data: { duration: '1e3', extra: 1 } });
      expect(bad.statusCode).toBe(400);
      expect(
        bad
          .json()
          .error.details.map((d: { field: string }) => d.field)
          .sort(),
      ).toEqual(['data.call_id', 'data.duration', 'data.extra']);
    });

    it('answers 409 when rotating the secret of a hook that does not sign', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const res = await api.call('POST', `${hooksUrl(acct)}/${hook.id}/signing-secret/rotate`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('CONFLICT');
    });
  });

  describe('security', () => {
    it('refuses the event types and a rotation without the operator key', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct, { signing: true });
      for (const [method, url] of [
        ['GET', '/v1/event-types'],
        ['POST', `${hooksUrl(acct)}/${hook.id}/signing-secret/rotate`],
      ] as const) {
        expect((await api.call(method, url, undefined, { key: null })).statusCode).toBe(401);
        expect((await api.call(method, url, undefined, { key: `${API_KEY}x` })).statusCode).toBe(401);
      }
    });

    it("answers 404 for another account's hook, and rotates nothing", async () => {
      const acct = await api.createAccount();
      const other = await api.createAccount('Other');
      const hook = await api.call('POST', hooksUrl(acct), {
        url: 'https://hooks.example.com/in',
        format: 'json',
        signing: true,
      });
      const res = await api.call('POST', `${hooksUrl(other)}/${hook.json().id}/signing-secret/rotate`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
      expect((await api.call('GET', `${hooksUrl(acct)}/${hook.json().id}`)).json()).not.toHaveProperty(
        'signing_previous_expires_at',
      );
    });
  });
});
