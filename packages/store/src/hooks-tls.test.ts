import { X509Certificate } from 'node:crypto';
import { HooklineError } from '@hookline/core';
import { makeTestPki, useRedis, type TestPki } from '@hookline/testing';
import type { AccountView } from './contracts';
import type { Store } from './create-store';
import { storeForTest } from './test-support/store-for-test';

// Per-hook client certificates (product.md §17): checked when saved, the key sealed and write-only.
const ctx = useRedis('store-tls');
const DAY = 24 * 3600 * 1000;
let pki: TestPki;
let store: Store;
let account: AccountView;
let now: number;

beforeAll(() => {
  pki = makeTestPki('mtls.example.com', 'hookline-client', 30);
});
beforeEach(async () => {
  now = Date.now();
  ({ store } = storeForTest(ctx, { clock: () => new Date(now) }));
  account = await store.accounts.create({ name: 'Acme' });
});

const create = (tls: unknown) =>
  store.hooks.create(
    account.id,
    { url: 'https://mtls.example.com/hook', format: 'json', tls } as never,
    'operator',
  );

const problemsOf = async (tls: unknown) => {
  try {
    await create(tls);
    return [];
  } catch (error) {
    if (!(error instanceof HooklineError)) throw error;
    return (error.details ?? []).map((d) => [d.field, d.message]);
  }
};

describe('hook client certificates', () => {
  it('are kept sealed: the view shows subject and expiry, never the key; the target has all of it', async () => {
    const hook = await create({ ...pki.client, ca: pki.ca });
    const expires = new X509Certificate(pki.client.cert).validTo;
    expect(hook.tls).toEqual({
      subject: 'CN=hookline-client, O=Acme',
      issuer: 'CN=hookline test CA',
      expires_at: new Date(expires).toISOString(),
      expires_soon: false,
      fingerprint_sha256: new X509Certificate(pki.client.cert).fingerprint256,
      private_ca: true,
    });
    const stored = JSON.stringify(await ctx.redis.hgetall(`${ctx.prefix}:{${hook.id}}:hook`));
    expect(stored).not.toContain('PRIVATE KEY');
    expect(stored).not.toContain(pki.client.key.split('\n')[1]);
    expect(JSON.stringify(await store.hooks.get(account.id, hook.id))).not.toContain('PRIVATE KEY');
    await expect(store.hooks.target(hook.id)).resolves.toMatchObject({ tls: { ...pki.client, ca: pki.ca } });
  });

  it('warn 14 days before they expire', async () => {
    const hook = await create(pki.client);
    now = Date.parse(hook.tls!.expires_at) - 15 * DAY;
    expect((await store.hooks.get(account.id, hook.id))?.tls?.expires_soon).toBe(false);
    now = Date.parse(hook.tls!.expires_at) - 14 * DAY;
    expect((await store.hooks.get(account.id, hook.id))?.tls?.expires_soon).toBe(true);
  });

  it('are replaced and removed by update', async () => {
    const hook = await create(pki.client);
    const other = makeTestPki('mtls.example.com', 'second-client', 30);
    const replaced = await store.hooks.update(account.id, hook.id, { tls: other.client }, 'operator');
    expect(replaced?.tls?.subject).toBe('CN=second-client, O=Acme');
    const removed = await store.hooks.update(account.id, hook.id, { tls: null }, 'operator');
    expect(removed).not.toHaveProperty('tls');
    await expect(store.hooks.target(hook.id)).resolves.not.toHaveProperty('tls');
  });

  it("refuse a key that is not the certificate's, unparsable PEM, and an expired certificate, naming each", async () => {
    expect(await problemsOf({ cert: pki.client.cert, key: pki.stranger.key })).toEqual([
      ['tls.key', "key does not match cert (it is another certificate's key)"],
    ]);
    expect(
      await problemsOf({
        cert: 'not a cert',
        key: 'not a key',
        ca: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
      }),
    ).toEqual([
      ['tls.cert', 'cert is not a PEM certificate (-----BEGIN CERTIFICATE-----)'],
      ['tls.key', 'key is not an unencrypted PEM private key (-----BEGIN PRIVATE KEY-----)'],
      ['tls.ca', 'ca is not one or more PEM certificates (-----BEGIN CERTIFICATE-----)'],
    ]);
    const cert = new X509Certificate(pki.client.cert);
    now = Date.parse(cert.validTo) + 1000;
    expect(await problemsOf(pki.client)).toEqual([
      ['tls.cert', `cert expired on ${new Date(cert.validTo).toISOString()}`],
    ]);
    now = Date.parse(cert.validFrom) - 3600_000;
    expect(await problemsOf(pki.client)).toEqual([
      ['tls.cert', `cert is not valid before ${new Date(cert.validFrom).toISOString()}`],
    ]);
    expect(await store.hooks.list(account.id)).toEqual([]);
  });
});
