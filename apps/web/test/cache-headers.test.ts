import { newId } from '@hookline/core';
import { ASSETS } from '../src/assets/assets';
import { signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

// Pages show one account's data: every answer of the website is Cache-Control: no-store, its not-found answers
// (the host's, for any path) included, whether a page or the API's error shape; only its hashed files are cached.
describe('the website’s cache headers (HTTP)', () => {
  const w = useWebsite();

  it('pages, refusals and every not-found are no-store; the hashed files are cached', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook' });
    const gone = await w.hook(account.id, { url: 'https://old.example.com/hook' });
    await w.store.hooks.remove(account.id, gone.id, 'operator');
    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const signedIn = { cookie: session.cookie, accept: 'text/html' };
    const answers: [string, Record<string, string>, number][] = [
      ['/', signedIn, 200],
      [`/hooks/${hook.id}`, signedIn, 200],
      ['/activity', signedIn, 200],
      ['/login', { accept: 'text/html' }, 200],
      ['/signed-out', { accept: 'text/html' }, 200],
      [`/hooks/${newId('hk')}`, signedIn, 404],
      [`/hooks/${gone.id}`, signedIn, 410],
      ['/no-such-page', signedIn, 404],
      ['/no-such-page', { accept: 'text/html' }, 404],
      ['/no-such-page', { accept: '*/*' }, 404],
      ['/no-such-page', {}, 404],
    ];
    for (const [path, headers, status] of answers) {
      const res = await fetch(`${w.baseUrl}${path}`, { headers, redirect: 'manual' });
      expect([path, headers.accept, res.status, res.headers.get('cache-control')]).toEqual([
        path,
        headers.accept,
        status,
        'no-store',
      ]);
    }
    const css = await fetch(`${w.baseUrl}${ASSETS.css.path}`);
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
