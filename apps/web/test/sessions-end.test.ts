import { postForm, signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

// A password change is what a customer does when a device or a cookie may be in the wrong hands: every
// other session of the account must end with it.
describe('changing the password', () => {
  const w = useWebsite();

  const signIn = (email: string, password: string) => signInOverHttp(w.baseUrl, email, password);

  const hooksPage = (cookie: string) => fetch(`${w.baseUrl}/`, { headers: { cookie }, redirect: 'manual' });

  it('signs the account out everywhere else, and keeps this browser signed in', async () => {
    await w.account('ops@acme.test');
    const laptop = await signIn('ops@acme.test', PASSWORD);
    const phone = await signIn('ops@acme.test', PASSWORD);
    expect((await hooksPage(phone.cookie)).status).toBe(200);

    const changed = await postForm(w.baseUrl, laptop, '/account/password', {
      current_password: PASSWORD,
      new_password: 'a brand new passphrase',
      confirm_password: 'a brand new passphrase',
    });
    expect(changed.status).toBe(303);
    const laptopNow = changed.headers.get('set-cookie')!.split(';')[0]!;

    expect((await hooksPage(laptopNow)).status).toBe(200);
    const phoneNow = await hooksPage(phone.cookie);
    expect(phoneNow.status).toBe(303);
    expect(phoneNow.headers.get('location')).toMatch(/^\/login/);
    // The old password no longer works, the new one does.
    await signIn('ops@acme.test', 'a brand new passphrase');
  });

  it('refuses a new password with a control character, naming it, and keeps the old one', async () => {
    await w.account('ctl@acme.test');
    const laptop = await signIn('ctl@acme.test', PASSWORD);
    const next = 'new\u0001password\u007fxyz';
    const res = await postForm(w.baseUrl, laptop, '/account/password', {
      current_password: PASSWORD,
      new_password: next,
      confirm_password: next,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('New password must not contain control characters.');
    expect((await hooksPage(laptop.cookie)).status).toBe(200);
    await signIn('ctl@acme.test', PASSWORD);
  });
});
