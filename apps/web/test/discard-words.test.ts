import { signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

const CALL = { direction: 'outbound', from: 'jonas1', from_cnam: 'Jonas 1', to: '78791245', rate: '0.0' };

// Plain words (§15): held events discarded when the operator re-enabled a hook through the API are recorded
// "discarded by operator …"; the customer's log says who in the words the Activity page uses ("your provider").
describe('who discarded held events, in the log', () => {
  const w = useWebsite();

  it('says "your provider" for a re-enable made with the operator key', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/calls', description: 'CRM' });
    await w.suspend(hook.id, 3);
    await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id: 'held-1' } });
    await w.control.enable(account.id, hook.id, 'discard', 'operator');

    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const page = await (
      await fetch(`${w.baseUrl}/hooks/${hook.id}?outcome=discarded`, { headers: { cookie: session.cookie } })
    ).text();
    const text = page.replace(/<[^>]+>/g, ' ');
    expect(text).toContain('discarded by your provider when the hook was re-enabled');
    expect(text).not.toMatch(/discarded by operator/);
  });
});
