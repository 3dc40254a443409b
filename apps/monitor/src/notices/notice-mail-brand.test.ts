import { noticeMail } from './notice-mail';

// With a brand (product.md §16), every notice e-mail carries the operator's name, logo and help link, and no
// part of it (subject, text, HTML) names hookline.
describe('notice e-mails with the operator’s brand', () => {
  const hook = { id: 'hk_00000000000000000001', url: 'https://crm.example.com/calls', description: 'CRM' };
  const brand = {
    name: 'Voxtel Connect',
    supportUrl: 'https://help.voxtel.test/webhooks',
    logoUrl: 'https://hooks.voxtel.test/brand-logo',
  };
  const failures = [{ attempted_at: '2026-11-25T09:00:00.000Z', outcome: 'failed', status_code: 503 }];

  it.each(['hook.failing', 'hook.suspended', 'hook.enabled'] as const)('%s', (kind) => {
    const mail = noticeMail(
      {
        kind,
        accountId: 'acct_0000000001',
        hookId: hook.id,
        at: '2026-11-25T09:10:00.000Z',
        reason: '10 consecutive failures over 10 minutes',
        actor: 'monitor',
        failures,
      },
      hook,
      'https://hooks.voxtel.test',
      brand,
    );
    expect(mail.subject).toMatch(/^\[Voxtel Connect\] Hook “CRM” /);
    expect(mail.text).toContain('Need help? https://help.voxtel.test/webhooks');
    expect(mail.text).toContain('— Voxtel Connect');
    expect(mail.html).toContain('<img src="https://hooks.voxtel.test/brand-logo" alt="Voxtel Connect"');
    expect(mail.html).toContain('<a href="https://help.voxtel.test/webhooks">Need help?</a>');
    for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(/hookline/i);
  });
});

describe('the notice of a hook an administrator paused', () => {
  it('says an administrator must resume it, not that the customer should re-enable it', () => {
    const hook = { id: 'hk_00000000000000000001', url: 'https://crm.example.com/calls', description: 'CRM' };
    const mail = noticeMail(
      {
        kind: 'hook.suspended',
        accountId: 'acct_0000000001',
        hookId: hook.id,
        at: '2026-11-25T09:10:00.000Z',
        reason: 'paused by admin: Maintenance by ops',
        actor: 'admin:ops',
        failures: [],
      },
      hook,
    );
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('until an administrator resumes it');
      expect(part).not.toMatch(/until you re-enable|when you re-enable/);
    }
  });
});

describe('the notice of a hook without a description', () => {
  it('names it by its URL once, with it beside the description otherwise', () => {
    const notice = {
      kind: 'hook.failing' as const,
      accountId: 'acct_0000000001',
      hookId: 'hk_00000000000000000001',
      at: '2026-11-25T09:10:00.000Z',
      reason: '5 consecutive failures over 2 minutes',
      actor: 'monitor',
      failures: [],
    };
    const url = 'https://crm.example.com/calls';
    const bare = noticeMail(notice, { id: notice.hookId, url });
    expect(bare.text).toContain(`Your hook ${url} is failing`);
    for (const part of [bare.text, bare.html]) expect(part.split(url)).toHaveLength(2);
    const named = noticeMail(notice, { id: notice.hookId, url, description: 'CRM' });
    expect(named.text).toContain(`Your hook “CRM” (${url}) is failing`);
  });
});
