import { PASSWORD, useWebsite } from './support/website';

// A password change is what a customer does when a device or a cookie may be in the wrong hands: every
// other session of the account must end with it.
describe('changing the password', () => {
  const w = useWebsite();

  /** Signs in over HTTP as a browser would; returns the session cookie and the form token. */
  async function signIn(email: string, password: string): Promise<{ cookie: string; csrf: string }> {
    const form = await fetch(`${w.baseUrl}/login`);
    const anonymous = form.headers.get('set-cookie')!.split(';')[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const res = await fetch(`${w.baseUrl}/login`, {
      method: 'POST',
      headers: { cookie: anonymous, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(`${w.baseUrl}/account`, { headers: { cookie } });
    return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]! };
  }

  const hooksPage = (cookie: string) => fetch(`${w.baseUrl}/`, { headers: { cookie }, redirect: 'manual' });

  it('signs the account out everywhere else, and keeps this browser signed in', async () => {
    await w.account('ops@acme.test');
    const laptop = await signIn('ops@acme.test', PASSWORD);
    const phone = await signIn('ops@acme.test', PASSWORD);
    expect((await hooksPage(phone.cookie)).status).toBe(200);

    const changed = await fetch(`${w.baseUrl}/account/password`, {
      method: 'POST',
      headers: { cookie: laptop.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        _csrf: laptop.csrf,
        current_password: PASSWORD,
        new_password: 'a brand new passphrase',
        confirm_password: 'a brand new passphrase',
      }).toString(),
      redirect: 'manual',
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
});
