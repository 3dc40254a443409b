import { noticeMail } from './notice-mail';

// Plain words (§15) in the e-mail's list of the last failures: each says what happened as the website's pages
// do, never the recorded outcome code ("error", "timed_out").
describe('the failures listed in a notice e-mail', () => {
  const hook = { id: 'hk_00000000000000000001', url: 'https://crm.example.com/calls', description: 'CRM' };
  const at = '2026-11-25T09:00:00.000Z';

  it('are in words: a status, or what happened', () => {
    const mail = noticeMail(
      {
        kind: 'hook.suspended',
        accountId: 'acct_0000000001',
        hookId: hook.id,
        at: '2026-11-25T09:10:00.000Z',
        reason: '3 consecutive failures over 10 minutes',
        actor: 'monitor',
        failures: [
          { attempted_at: at, outcome: 'error', error: 'ECONNREFUSED' },
          { attempted_at: at, outcome: 'timed_out' },
          { attempted_at: at, outcome: 'failed', status_code: 503 },
          {
            attempted_at: at,
            outcome: 'error',
            error:
              'no OAuth 2.0 token from https://auth.example.com/token: the token endpoint answered 401; nothing was sent to the endpoint',
          },
        ],
      },
      hook,
      'https://hooks.example.com',
    );
    const lines = mail.text.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toEqual([
      '- 25 Nov 2026, 09:00:00 UTC  the endpoint refused the connection',
      '- 25 Nov 2026, 09:00:00 UTC  the endpoint did not answer in time',
      '- 25 Nov 2026, 09:00:00 UTC  HTTP 503',
      // The endpoint was never asked: no token could be had.
      '- 25 Nov 2026, 09:00:00 UTC  no OAuth 2.0 token could be had: the token endpoint answered 401; nothing was sent to the endpoint',
    ]);
  });
});
