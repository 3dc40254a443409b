import { errorText } from '../view/format';
import { actorWords, detailWords } from './audit-words';
import { loginPage } from './login-page';

// Pages speak to customers: no internal ids, no API calls in their sentences.
describe('customer-facing text', () => {
  it('names who acted in words, never by an internal id', () => {
    expect(actorWords({ kind: 'account_user' })).toBe('you');
    // A change made with the operator key is someone's at the provider (a re-enable too), not automatic.
    expect(actorWords({ kind: 'operator_key', key: '0123456789abcdef' })).toBe('your provider');
    expect(actorWords({ kind: 'portal_session', link: '0123456789abcdef', read_only: true })).toBe(
      'you, from your provider’s site (view only)',
    );
  });

  it('names pnpm start’s set-up in the audit log by what it was for, not by the command', () => {
    expect(actorWords({ kind: 'start_command', command: 'pnpm start' })).toBe('the first-run set-up');
    expect(actorWords({ kind: 'start_command', command: 'pnpm start --demo' })).toBe('the demo set-up');
    const created = { id: 'aud_1', at: '', account_id: 'acct_1', actor: { kind: 'account_user' as const } };
    expect(detailWords({ ...created, action: 'account.created', detail: { sign_in: true } })).toBe(
      'with a website sign-in',
    );
  });

  it('a test that failed before re-enabling does not read as if held events were delivered', () => {
    const entry = { id: 'aud_1', at: '', account_id: 'acct_1', actor: { kind: 'account_user' as const } };
    const tested = (passed: boolean) =>
      detailWords({ ...entry, action: 'hook.enabled', detail: { held: 'deliver', passed } });
    expect(tested(false)).toBe(
      'the test event was not delivered, so the hook stays suspended and nothing held was sent',
    );
    expect(tested(true)).toBe('held events delivered in order; the endpoint accepted the test first');
  });

  it('the sign-in page tells a visitor without an account whom to ask, not which API call makes one', () => {
    const page = String(loginPage({ csrf: 'token' }));
    expect(page).toContain('Ask your phone system provider');
    expect(page).not.toContain('/v1/accounts');
  });
});

describe('delivery errors on pages', () => {
  it('are sentences, with the recorded text kept in the tooltip', () => {
    expect(String(errorText('ECONNREFUSED'))).toBe('<span>The endpoint refused the connection</span>');
    expect(String(errorText('UND_ERR_SOCKET: other side closed'))).toContain(
      'The connection was closed before an answer',
    );
    expect(String(errorText('ENOTFOUND'))).toContain('The host name could not be found');
    expect(String(errorText('HTTP 503 Service Unavailable'))).toBe('HTTP 503 Service Unavailable');
  });
});
