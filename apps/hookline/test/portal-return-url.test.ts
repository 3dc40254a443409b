import { useRedis } from '@hookline/testing';
import { startHttpTier } from './support/http-tier';

// A sign-in link's return_url, end to end on the HTTP tier as deployed (product.md §16): the operator gives it
// to the API, the customer opens the link on the website and signs out, and the browser is sent back to it.
// It travels in a Location header and an href, so what comes back is its parsed, ASCII form.
describe("a sign-in link's return_url, from the API to the website's sign-out", () => {
  const ctx = useRedis('portal-return');
  const API_KEY = 'k'.repeat(32);
  let base: string;

  beforeEach(async () => {
    // The website too: the link is opened and signed out of on it.
    ({ base } = await startHttpTier(ctx, { HOOKLINE_API_KEY: API_KEY }, 'all-in-one'));
  });

  async function portalLink(returnUrl: string): Promise<Response> {
    const account = await fetch(`${base}/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Acme' }),
    });
    const { id } = (await account.json()) as { id: string };
    return fetch(`${base}/v1/accounts/${id}/portal-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ return_url: returnUrl }),
    });
  }

  it.each([
    ['a non-ASCII path', 'https://x.example/€/preise?q=ü', 'https://x.example/%E2%82%AC/preise?q=%C3%BC'],
    ['an IDN host', 'https://bücher.example/konto', 'https://xn--bcher-kva.example/konto'],
  ])(
    'with %s, signing out answers 303 to its normalised form, and a used link links to it',
    async (_, given, sent) => {
      const made = await portalLink(given);
      expect(made.status).toBe(201);
      const { url } = (await made.json()) as { url: string };

      const opened = await fetch(url, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
      const page = await (await fetch(`${base}/account`, { headers: { cookie } })).text();
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;

      const out = await fetch(`${base}/logout`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf }).toString(),
        redirect: 'manual',
      });
      expect(out.status).toBe(303);
      expect(out.headers.get('location')).toBe(sent);

      const again = await fetch(url, { redirect: 'manual' });
      expect(again.status).toBe(410);
      expect(await again.text()).toContain(`href="${sent}"`);
    },
  );

  it.each([
    ['CR LF', 'https://x.example/\r\nSet-Cookie: a=b'],
    ['LF', 'https://x.example/\nb'],
    ['TAB', 'https://x.example/\tb'],
  ])('refuses a return_url with %s: 400 naming it', async (_, given) => {
    const res = await portalLink(given);
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(
      '{"error":{"code":"VALIDATION_FAILED","message":"Invalid request: return_url",' +
        '"details":[{"field":"return_url","message":"must not contain control characters"}]}}',
    );
  });
});
