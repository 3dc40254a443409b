import { startReceiver } from '@hookline/testing';
import { postForm, signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

// Every change made on the website writes exactly one audit entry, by the signed-in user, and the Activity
// page shows them in words: who, what, which fields; never a secret.
describe('the audit log through the website', () => {
  const w = useWebsite();

  it('records each change once, by the account user, and the Activity page says it in words', async () => {
    const receiver = w.ctx.closeLater(await startReceiver());
    const account = await w.account('ops@acme.test');
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const entries = async () => (await w.audit.list(account.id, { limit: 50 })).data;
    const step = async (path: string, fields: Record<string, string>, action: string) => {
      const before = (await entries()).length;
      const res = await postForm(w.baseUrl, session, path, fields);
      expect(res.status).toBe(303);
      const after = await entries();
      expect(after).toHaveLength(before + 1);
      expect(after[0]).toMatchObject({
        action,
        account_id: account.id,
        actor: { kind: 'account_user' },
        address: '127.0.0.1',
      });
      return after[0]!;
    };

    const form = { url: receiver.url('/calls'), format: 'json', auth_scheme: 'none', description: 'CRM' };
    await step('/hooks', form, 'hook.created');
    const [hook] = await w.store.hooks.list(account.id);
    const edited = await step(
      `/hooks/${hook!.id}/edit`,
      {
        ...form,
        // The version the edit form carries: a save without it is refused as possibly stale.
        version: String(await w.store.hooks.version(account.id, hook!.id)),
        description: 'CRM log',
        auth_scheme: 'bearer',
        bearer_token: 'tok_web_secret_77',
      },
      'hook.credentials_changed',
    );
    expect(edited.detail).toEqual({ fields: ['auth', 'description'] });
    await step(`/hooks/${hook!.id}/test`, {}, 'hook.tested');

    await w.suspend(hook!.id, 3);
    const suspended = (await w.store.hooks.get(account.id, hook!.id))!;
    const held = await w.hookQueues.waitingCount(hook!.id);
    const enabled = await step(
      `/hooks/${hook!.id}/enable`,
      { held: 'discard', seen_suspended_at: suspended.suspended_at!, seen_held: String(held) },
      'hook.enabled',
    );
    expect(enabled.detail).toEqual({ held: 'discard' });

    const activity = await (
      await fetch(`${w.baseUrl}/activity`, { headers: { cookie: session.cookie } })
    ).text();
    expect(activity).toContain('Credentials changed');
    expect(activity).toContain('Changed: credentials, description');
    expect(activity).toContain('held events discarded');
    expect(activity).toContain('by you');
    // What hookline did by itself is still there, apart.
    expect(activity).toContain('Hook suspended');
    expect(activity).not.toContain('tok_web_secret_77');
    // Plain words: the hook is named by its description, its id only in the link's address.
    expect(activity.replace(/<[^>]+>/g, ' ')).not.toContain(hook!.id);

    await step(`/hooks/${hook!.id}/delete`, {}, 'hook.deleted');
    expect((await entries()).map((e) => e.action)).toEqual([
      'hook.deleted',
      'hook.enabled',
      'hook.tested',
      'hook.credentials_changed',
      'hook.created',
    ]);
    expect(JSON.stringify(await entries())).not.toContain('tok_web_secret_77');
    const [deleted, , , , created] = await entries();
    // Each names the endpoint as it was then: the creation its first description, the deletion its last.
    expect(created!.detail).toEqual({ url: form.url, description: 'CRM' });
    expect(deleted!.detail).toEqual({ url: form.url, description: 'CRM log' });
    const gone = await (await fetch(`${w.baseUrl}/activity`, { headers: { cookie: session.cookie } })).text();
    const words = (kind: string) =>
      new RegExp(`<li data-kind="${kind}"[^]*?</li>`)
        .exec(gone)![0]
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ');
    // The hook is gone: its entries still name it, and say it was deleted since without saying by whom.
    expect(words('hook.created')).toContain('Hook created CRM (deleted since) by you');
    expect(words('hook.deleted')).toContain('Hook deleted CRM log by you');
    expect(words('hook.tested')).toContain('CRM log (deleted since) by you');
    expect(gone).not.toContain('a hook that was deleted');
  });

  it('names an erasure request as requested, not as done', async () => {
    // An erasure runs for a minute or more after it is accepted: the entry written then says it was asked for.
    const account = await w.account('ops@acme.test');
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const actor = { kind: 'operator_key' as const, key: 'sha256:0123456789abcdef' };
    // As the API's route does: the store accepts it (writing the account's activity feed), then the audit.
    const erasure = await w.store.erasures.request(
      account.id,
      { kind: 'number', value: '+15550100' },
      'operator',
      { actor },
    );
    const by = { erasure_id: erasure.id, by: 'number' as const };
    await w.audit.record({ account_id: account.id, action: 'erasure.requested', actor, detail: by });
    const activity = await (
      await fetch(`${w.baseUrl}/activity`, { headers: { cookie: session.cookie } })
    ).text();
    const text = activity.replace(/<[^>]+>/g, ' ');
    expect(text).toContain('Personal data erasure requested');
    expect(text).not.toContain('Personal data erased');
    // Once, by the provider who asked: not again as something done automatically, with the erasure's id.
    expect(text.match(/erasure requested/gi)).toHaveLength(1);
    expect(text).not.toContain('automatically');
    expect(text).not.toContain(erasure.id);
  });

  it("the Activity page says an admin's pause once, with the admin's name, address and reason", async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/calls', description: 'CRM' });
    // As Bull Board's pause does it (apps/admin board-actions.ts): the suspension, then the audit entry.
    await w.control.suspend(hook.id, 'paused by admin: endpoint migration until 10:00', 'admin:ops');
    await w.audit.record({
      account_id: account.id,
      action: 'hook.paused',
      hook_id: hook.id,
      actor: { kind: 'admin', name: 'ops' },
      address: '127.0.0.1',
      detail: { reason: 'endpoint migration until 10:00' },
    });
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const activity = await (
      await fetch(`${w.baseUrl}/activity`, { headers: { cookie: session.cookie } })
    ).text();
    const text = activity.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('the reason given: “endpoint migration until 10:00”');
    expect(text).toContain('from 127.0.0.1');
    // Not again as something the service did by itself.
    expect(text).not.toContain('automatically');
    expect(text).not.toContain('Hook suspended');
  });

  it('a refused form (bad input, wrong CSRF token) records nothing', async () => {
    const account = await w.account('ops@acme.test');
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    expect((await postForm(w.baseUrl, session, '/hooks', { url: 'ftp://x', format: 'json' })).status).toBe(
      400,
    );
    expect(
      (await postForm(w.baseUrl, { ...session, csrf: 'wrong' }, '/hooks', { url: 'http://127.0.0.1:9/' }))
        .status,
    ).toBe(403);
    expect((await w.audit.list(account.id, { limit: 10 })).data).toEqual([]);
  });
});
