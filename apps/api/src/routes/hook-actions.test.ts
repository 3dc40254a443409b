import { startReceiver } from '@hookline/testing';
import { callCreated, useApi } from '../test-support/api-harness';

describe('hook actions', () => {
  const api = useApi();
  const hookUrl = (acct: string, hook: string) => `/v1/accounts/${acct}/hooks/${hook}`;

  /** A suspended hook with `held` events waiting in its paused queue. */
  async function suspendedHook(held: number) {
    const acct = await api.createAccount();
    const hook = await api.createHook(acct);
    expect(await api.deps.control.suspend(hook.id, '10 failures in a row', 'monitor')).toBe(true);
    for (let i = 0; i < held; i += 1)
      expect(
        (await api.call('POST', `/v1/accounts/${acct}/events`, { type: 'call_created', data: callCreated() }))
          .statusCode,
      ).toBe(202);
    return { acct, hookId: hook.id };
  }

  describe('POST …/enable', () => {
    it('shows a suspended hook as such, then re-enables it delivering the held events', async () => {
      const { acct, hookId } = await suspendedHook(2);
      const before = await api.call('GET', hookUrl(acct, hookId));
      expect(before.json()).toMatchObject({
        state: 'suspended',
        suspended_at: expect.any(String),
        suspended_reason: '10 failures in a row',
      });

      const res = await api.call('POST', `${hookUrl(acct, hookId)}/enable`, { held: 'deliver' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: hookId,
        state: 'active',
        held_events: { discarded: 0, queued: 2 },
      });
      // Again: the hook is active, nothing changes, and the answer says nothing of held events.
      const again = await api.call('POST', `${hookUrl(acct, hookId)}/enable`, { held: 'deliver' });
      expect(again.json()).toMatchObject({ id: hookId, state: 'active' });
      expect(again.json()).not.toHaveProperty('held_events');
      expect(res.json()).not.toHaveProperty('suspended_at');
      expect(await api.queues.isPaused(hookId)).toBe(false);
      expect(await api.queues.waitingCount(hookId)).toBe(2);
      const activity = await api.call('GET', `/v1/accounts/${acct}/activity`);
      expect(activity.json().data[0]).toMatchObject({
        kind: 'hook.enabled',
        hook_id: hookId,
        actor: 'operator',
      });
    });

    it('re-enables discarding the held events, which the delivery log records', async () => {
      const { acct, hookId } = await suspendedHook(2);
      const res = await api.call('POST', `${hookUrl(acct, hookId)}/enable`, { held: 'discard' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ state: 'active', held_events: { discarded: 2, queued: 0 } });
      expect(await api.queues.waitingCount(hookId)).toBe(0);
      const log = await api.call('GET', `${hookUrl(acct, hookId)}/deliveries`);
      expect(log.json().data.map((d: { outcome: string }) => d.outcome)).toEqual(['discarded', 'discarded']);
    });

    it('re-enables with since: events accepted before it are discarded, the rest delivered in order', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      expect(await api.deps.control.suspend(hook.id, 'paused by admin', 'admin:ops')).toBe(true);
      for (const call_id of ['old-1', 'old-2', 'edge', 'new-1']) {
        await api.call('POST', `/v1/accounts/${acct}/events`, {
          type: 'call_created',
          data: callCreated({ call_id }),
        });
        // Distinct acceptance times: the boundary below falls exactly on one event.
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      const held = await api.jobsOf(hook.id);
      const edge = held.find((j) => j.event.fields.call_id === 'edge')!;
      const since = new Date(edge.acceptedAt).toISOString();

      const res = await api.call('POST', `${hookUrl(acct, hook.id)}/enable`, { held: 'since', since });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ state: 'active', held_events: { discarded: 2, queued: 2 } });
      // The event accepted exactly at `since` counts as newer: it is delivered, after nothing older.
      expect((await api.jobsOf(hook.id)).map((j) => j.event.fields.call_id)).toEqual(['edge', 'new-1']);
      const log = (await api.call('GET', `${hookUrl(acct, hook.id)}/deliveries`)).json().data;
      expect(log.map((d: { call_id: string; outcome: string }) => [d.call_id, d.outcome])).toEqual([
        ['old-2', 'discarded'],
        ['old-1', 'discarded'],
      ]);
      const activity = (await api.call('GET', `/v1/accounts/${acct}/activity`)).json().data[0];
      expect(activity).toMatchObject({
        kind: 'hook.enabled',
        detail: `re-enabled; 2 held events accepted before ${since} discarded, 2 queued for delivery, in order`,
      });
    });

    it('probes first: a 500 answers 409 PROBE_FAILED with the attempt, sends nothing held, and the hook stays suspended', async () => {
      const receiver = api.ctx.closeLater(
        await startReceiver(() => ({ kind: 'status', status: 500, body: 'down' })),
      );
      const acct = await api.createAccount();
      const hook = await api.createHook(acct, {
        url: receiver.url('/hook'),
        auth: { scheme: 'bearer', token: 'tok_probe_1' },
      });
      expect(await api.deps.control.suspend(hook.id, 'paused by admin', 'admin:ops')).toBe(true);
      await api.call('POST', `/v1/accounts/${acct}/events`, {
        type: 'call_created',
        data: callCreated({ call_id: 'held-1' }),
      });

      const res = await api.call('POST', `${hookUrl(acct, hook.id)}/enable`, {
        held: 'deliver',
        probe: true,
      });
      expect(res.statusCode).toBe(409);
      const body = res.json();
      expect(body.error.code).toBe('PROBE_FAILED');
      expect(body.error.message).toContain('HTTP 500');
      expect(body.attempt).toMatchObject({
        trigger: 'probe',
        outcome: 'failed',
        status_code: 500,
        event_type: 'call_created',
      });
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]!.headers.authorization).toBe('Bearer tok_probe_1');
      expect(JSON.parse(receiver.requests[0]!.body.toString())).toMatchObject({
        EventType: 'call_created',
        call_id: expect.stringMatching(/^probe-/),
      });
      expect(await api.queues.isPaused(hook.id)).toBe(true);
      expect((await api.jobsOf(hook.id)).map((j) => j.event.fields.call_id)).toEqual(['held-1']);
      // The probe is in the hook's history like any attempt.
      const log = (await api.call('GET', `${hookUrl(acct, hook.id)}/deliveries`)).json().data;
      expect(log[0]).toMatchObject({
        attempt_id: body.attempt.attempt_id,
        trigger: 'probe',
        outcome: 'failed',
      });
    });

    it('probes first: a 2xx re-enables with the chosen option', async () => {
      const receiver = api.ctx.closeLater(await startReceiver());
      const acct = await api.createAccount();
      const hook = await api.createHook(acct, { url: receiver.url('/hook') });
      expect(await api.deps.control.suspend(hook.id, 'paused by admin', 'admin:ops')).toBe(true);
      await api.call('POST', `/v1/accounts/${acct}/events`, {
        type: 'call_created',
        data: callCreated({ call_id: 'held-1' }),
      });
      const res = await api.call('POST', `${hookUrl(acct, hook.id)}/enable`, {
        held: 'discard',
        probe: true,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().state).toBe('active');
      expect(receiver.requests).toHaveLength(1);
      expect(await api.jobsOf(hook.id)).toEqual([]);
    });

    it('leaves an active hook as it is', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const res = await api.call('POST', `${hookUrl(acct, hook.id)}/enable`, { held: 'deliver' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: hook.id, state: 'active' });
    });

    it.each([
      ['no body', undefined, '(body)'],
      ['no held', {}, 'held'],
      ['an unknown choice', { held: 'keep' }, 'held'],
      ['an unknown field', { held: 'deliver', force: true }, 'force'],
      ['since without its time', { held: 'since' }, 'since'],
      ['since with a bad time', { held: 'since', since: 'last tuesday' }, 'since'],
      // Date.parse reads these as 1 December and the next midnight: every held event would be discarded.
      ['since on a date the calendar lacks', { held: 'since', since: '2026-11-31T00:00:00Z' }, 'since'],
      ['since at 24:00', { held: 'since', since: '2026-11-28T24:00:00Z' }, 'since'],
      ['a time without since', { held: 'deliver', since: '2026-11-24T09:00:00Z' }, 'since'],
      ['a probe that is not a boolean', { held: 'deliver', probe: 'yes' }, 'probe'],
    ])('answers 400 for %s, and the hook stays suspended', async (_label, body, field) => {
      const { acct, hookId } = await suspendedHook(1);
      const res = await api.call('POST', `${hookUrl(acct, hookId)}/enable`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual([field]);
      expect(await api.queues.isPaused(hookId)).toBe(true);
      expect(await api.queues.waitingCount(hookId)).toBe(1);
    });

    it("answers 404 for another account's hook, which stays suspended", async () => {
      const { hookId } = await suspendedHook(1);
      const mine = await api.createAccount('Mine');
      const res = await api.call('POST', `${hookUrl(mine, hookId)}/enable`, { held: 'discard' });
      expect(res.statusCode).toBe(404);
      expect(await api.queues.isPaused(hookId)).toBe(true);
      expect(await api.queues.waitingCount(hookId)).toBe(1);
    });

    it('answers 401 without the operator key', async () => {
      const { acct, hookId } = await suspendedHook(0);
      const res = await api.call(
        'POST',
        `${hookUrl(acct, hookId)}/enable`,
        { held: 'deliver' },
        { key: null },
      );
      expect(res.statusCode).toBe(401);
      expect(await api.queues.isPaused(hookId)).toBe(true);
    });
  });

  describe('POST …/test', () => {
    it('queues a sample call_created for that hook only, and answers 202 {id}', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const sibling = await api.createHook(acct);
      const res = await api.call('POST', `${hookUrl(acct, hook.id)}/test`);
      expect(res.statusCode).toBe(202);
      const { id } = res.json();
      expect(id).toMatch(/^evt_/);
      const jobs = await api.jobsOf(hook.id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]?.event).toMatchObject({
        id,
        type: 'call_created',
        fields: { EventType: 'call_created' },
      });
      expect(await api.jobsOf(sibling.id)).toEqual([]);
    });

    it('takes no input: an empty object is fine, a field or another body is refused, and nothing is queued', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      expect((await api.call('POST', `${hookUrl(acct, hook.id)}/test`, {})).statusCode).toBe(202);
      const field = await api.call('POST', `${hookUrl(acct, hook.id)}/test`, { zz: 1 });
      expect(field.statusCode).toBe(400);
      expect(field.json().error.details).toEqual([{ field: 'zz', message: 'is not a known field' }]);
      const nothing = await api.call('POST', `${hookUrl(acct, hook.id)}/test`, null);
      expect(nothing.statusCode).toBe(400);
      const list = await api.call('POST', `${hookUrl(acct, hook.id)}/test`, [1]);
      expect(list.statusCode).toBe(400);
      expect(list.json().error.details).toEqual([
        { field: '(body)', message: 'must be empty: this request takes no input' },
      ]);
      expect(await api.jobsOf(hook.id)).toHaveLength(1);
    });

    it('queues the sample behind events already waiting', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const event = await api.call('POST', `/v1/accounts/${acct}/events`, {
        type: 'call_created',
        data: callCreated(),
      });
      const test = await api.call('POST', `${hookUrl(acct, hook.id)}/test`);
      expect((await api.jobsOf(hook.id)).map((job) => job.event.id)).toEqual([
        event.json().id,
        test.json().id,
      ]);
    });

    it("answers 404 for another account's hook and queues nothing", async () => {
      const theirs = await api.createAccount('Theirs');
      const hook = await api.createHook(theirs);
      const mine = await api.createAccount('Mine');
      const res = await api.call('POST', `${hookUrl(mine, hook.id)}/test`);
      expect(res.statusCode).toBe(404);
      expect(await api.jobsOf(hook.id)).toEqual([]);
    });

    it('answers 401 with a wrong key and queues nothing', async () => {
      const acct = await api.createAccount();
      const hook = await api.createHook(acct);
      const res = await api.call('POST', `${hookUrl(acct, hook.id)}/test`, undefined, { key: 'nope' });
      expect(res.statusCode).toBe(401);
      expect(await api.jobsOf(hook.id)).toEqual([]);
    });
  });
});
