import { AUTH, useAdmin } from './test-support/admin-harness';

// Bull Board's pause and resume are changes someone made: each writes exactly one audit entry, with the
// admin's name; pressing again when nothing changes writes none.
describe('Bull Board pause and resume in the audit log', () => {
  const a = useAdmin();

  const entries = async () => (await a.audit.list(a.hook.account_id, { limit: 50 })).data;

  it('pause then resume: one entry each, by the admin, from the caller’s address', async () => {
    await a.mount();
    expect((await a.call('PUT', `${a.queuePath(a.hook.id)}/pause`)).statusCode).toBe(200);
    expect(await entries()).toEqual([
      expect.objectContaining({
        action: 'hook.paused',
        hook_id: a.hook.id,
        account_id: a.hook.account_id,
        actor: { kind: 'admin', name: 'ops' },
        address: '127.0.0.1',
      }),
    ]);
    // Pressed again on a paused hook: nothing changed, nothing recorded.
    expect((await a.call('PUT', `${a.queuePath(a.hook.id)}/pause`)).statusCode).toBe(200);
    expect(await entries()).toHaveLength(1);

    expect((await a.call('PUT', `${a.queuePath(a.hook.id)}/resume`)).statusCode).toBe(200);
    const [latest, ...rest] = await entries();
    expect(rest).toHaveLength(1);
    expect(latest).toMatchObject({
      action: 'hook.resumed',
      actor: { kind: 'admin', name: 'ops' },
      detail: { held: 'deliver' },
    });
  });

  it('a pause records the reason the admin gave, the one the customer reads (what was done, §16)', async () => {
    await a.mount();
    const answer = await a.call(
      'PUT',
      `${a.queuePath(a.hook.id)}/pause`,
      { ...AUTH, 'content-type': 'application/json' },
      JSON.stringify({ reason: 'endpoint migration until 10:00' }),
    );
    expect(answer.statusCode).toBe(200);
    const [paused] = await entries();
    expect(paused).toMatchObject({
      action: 'hook.paused',
      detail: { reason: 'endpoint migration until 10:00' },
    });
  });

  it('a pause that makes a suspension by failures the admin’s hold is recorded', async () => {
    await a.mount();
    await a.control.suspend(a.hook.id, '3 consecutive failures', 'monitor');
    const answer = await a.call(
      'PUT',
      `${a.queuePath(a.hook.id)}/pause`,
      { ...AUTH, 'content-type': 'application/json' },
      JSON.stringify({ reason: 'endpoint migration' }),
    );
    expect(answer.statusCode).toBe(200);
    expect(await entries()).toEqual([
      expect.objectContaining({ action: 'hook.paused', detail: { reason: 'endpoint migration' } }),
    ]);
  });

  it('a refused request (wrong password) records nothing', async () => {
    await a.mount();
    const wrong = { authorization: `Basic ${Buffer.from('ops:nope').toString('base64')}` };
    expect((await a.call('PUT', `${a.queuePath(a.hook.id)}/pause`, wrong)).statusCode).toBe(401);
    expect(await entries()).toEqual([]);
  });
});
