import { Webhook } from 'standardwebhooks';
import type { HookAuth } from '@hookline/core';
import { startReceiver } from '@hookline/testing';
import { screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(90000);

const AUTHS: readonly [string, HookAuth, string | undefined][] = [
  ['no authentication', { scheme: 'none' }, undefined],
  ['a bearer token', { scheme: 'bearer', token: 'tok_probe_1234' }, 'Bearer tok_probe_1234'],
  [
    'basic authentication',
    { scheme: 'basic', username: 'crm', password: 's3cret-pass' },
    `Basic ${Buffer.from('crm:s3cret-pass').toString('base64')}`,
  ],
];

// Test & re-enable sends its sample event exactly as a delivery would: the hook's auth and, when it signs,
// Standard Webhooks signatures that a receiver's own library accepts.
describe('Test & re-enable on every kind of hook (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  for (const [label, auth, authorization] of AUTHS)
    for (const signing of [true, false])
      it(`re-enables a hook with ${label}, ${signing ? 'signing' : 'not signing'} its requests`, async () => {
        const receiver = await startReceiver(() => ({ kind: 'status', status: 204 }));
        w.ctx.closeLater(receiver);
        const account = await w.account('ops@acme.test');
        const hook = await w.hook(account.id, {
          url: receiver.url('/hook'),
          description: 'CRM call log',
          auth,
          signing,
        });
        await w.suspend(hook.id, 4);
        const page = await browser.page();
        await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
        await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
        await page.getByRole('button', { name: /^Test & re-enable/ }).click();
        await expect(page.getByRole('status').first().textContent()).resolves.toContain('Hook re-enabled.');
        if (signing && auth.scheme === 'basic') await screenshot(page, 'probe-signing-passed');
        await expect(w.hookQueues.isPaused(hook.id)).resolves.toBe(false);

        expect(receiver.requests).toHaveLength(1);
        const [sent] = receiver.requests;
        expect(sent!.headers['authorization']).toBe(authorization);
        const body = sent!.body.toString('utf8');
        if (signing) {
          const headers = sent!.headers as Record<string, string>;
          const verified = new Webhook(hook.signing_secret!).verify(body, headers) as { EventType: string };
          expect(verified.EventType).toBe('call_created');
          expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
        } else {
          expect(Object.keys(sent!.headers).filter((h) => h.startsWith('webhook-'))).toEqual([]);
        }
        // The probe's record holds the request as sent, credentials masked.
        const [record] = (await w.reader.listForHook(hook.id, {}, { limit: 5 })).data.filter(
          (r) => r.trigger === 'probe',
        );
        expect(record).toMatchObject({ outcome: 'delivered', status_code: 204 });
      });
});
