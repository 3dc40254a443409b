import { useRedis } from '@hookline/testing';
import { startHttpTier } from './support/http-tier';

// The documented production layout: a TLS-terminating proxy in front of the HTTP tier.
describe('the HTTP tier behind a proxy', () => {
  const ctx = useRedis('http-proxy');

  const start = async (settings: Record<string, string>) =>
    (await startHttpTier(ctx, { HOOKLINE_ADMIN_PASSWORD: 'admin-password-1', ...settings })).base;

  it('with an https public URL: a Secure __Host- session cookie and HSTS, though the proxy speaks http', async () => {
    const base = await start({ HOOKLINE_PUBLIC_URL: 'https://hooks.example.com/' });
    const page = await fetch(`${base}/login`);
    expect(page.headers.get('set-cookie')).toMatch(
      /^__Host-hookline_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
    );
    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });

  it('without one: a plain session cookie and no HSTS (pnpm start on localhost)', async () => {
    const base = await start({});
    const page = await fetch(`${base}/login`);
    expect(page.headers.get('set-cookie')).toMatch(
      /^hookline_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(page.headers.get('strict-transport-security')).toBeNull();
  });

  const wrongAdmin = (forwardedFor: string) => ({
    authorization: `Basic ${Buffer.from('admin:guess').toString('base64')}`,
    'x-forwarded-for': forwardedFor,
  });

  it('counts sign-in failures per client address from X-Forwarded-For, when the proxy is trusted', async () => {
    const base = await start({ HOOKLINE_TRUST_PROXY: '127.0.0.1/32' });
    for (let i = 0; i < 20; i += 1) await fetch(`${base}/admin`, { headers: wrongAdmin('192.0.2.1') });
    expect((await fetch(`${base}/admin`, { headers: wrongAdmin('192.0.2.1') })).status).toBe(429);
    // Another client behind the same proxy is not locked out by the first one's guesses.
    expect((await fetch(`${base}/admin`, { headers: wrongAdmin('192.0.2.2') })).status).toBe(401);
  });

  it('ignores X-Forwarded-For from anyone not named in HOOKLINE_TRUST_PROXY', async () => {
    const base = await start({});
    for (let i = 0; i < 20; i += 1)
      await fetch(`${base}/admin`, { headers: wrongAdmin(`192.0.2.${i + 10}`) });
    // Claiming yet another address does not escape the count of the real one.
    expect((await fetch(`${base}/admin`, { headers: wrongAdmin('192.0.2.99') })).status).toBe(429);
  });
});
