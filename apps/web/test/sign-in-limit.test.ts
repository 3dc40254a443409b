import { csrfOf } from './support/http-session';
import { useWebsite } from './support/website';

// Password checks are slow on purpose (scrypt), so parallel guesses used to pass the limit's check before
// any of them was counted: 30 at once for one account were all checked against a limit of 5.
describe('sign-in attempts sent at once', () => {
  const w = useWebsite();

  it('checks at most 5 wrong passwords for one email; the others answer 429', async () => {
    await w.account('target@acme.test');
    const form = await fetch(`${w.baseUrl}/login`);
    const cookie = form.headers.get('set-cookie')!.split(';')[0]!;
    const csrf = csrfOf(await form.text());
    const body = new URLSearchParams({
      _csrf: csrf,
      email: 'target@acme.test',
      password: 'not-the-password',
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        fetch(`${w.baseUrl}/login`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: body.toString(),
          redirect: 'manual',
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
  });
});
