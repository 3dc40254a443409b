// A browser's sign-in over plain HTTP (no Chromium): for tests about what the server does with requests.
export interface HttpSession {
  readonly cookie: string;
  /** The form token of this session, as its pages carry it. */
  readonly csrf: string;
}

export const csrfOf = (page: string): string => /name="_csrf" value="([^"]+)"/.exec(page)![1]!;

export async function signInOverHttp(baseUrl: string, email: string, password: string): Promise<HttpSession> {
  const form = await fetch(`${baseUrl}/login`);
  const anonymous = form.headers.get('set-cookie')!.split(';')[0]!;
  const res = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    headers: { cookie: anonymous, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrfOf(await form.text()), email, password }).toString(),
    redirect: 'manual',
  });
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const page = await fetch(`${baseUrl}/account`, { headers: { cookie } });
  return { cookie, csrf: csrfOf(await page.text()) };
}

/** Posts a form as the signed-in browser would. */
export function postForm(
  baseUrl: string,
  session: HttpSession,
  path: string,
  fields: Record<string, string>,
) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: session.csrf, ...fields }).toString(),
    redirect: 'manual',
  });
}
