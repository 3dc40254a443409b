import { parseEventCatalog } from '@hookline/core';
import { expectEveryControlLabelled, screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

const parsed = parseEventCatalog(
  JSON.stringify({
    kinds: [
      {
        name: 'call_ended',
        description: 'A call ended',
        fields: [
          { name: 'call_id', type: 'string' },
          { name: 'duration', type: 'decimal' },
        ],
      },
    ],
  }),
);
if (!parsed.ok) throw new Error(parsed.problems.join('\n'));

describe('event kinds and signatures on the website (browser)', () => {
  const w = useWebsite({ eventCatalog: parsed.catalog });
  const browser = useBrowser();

  it('creates a signing hook for chosen kinds: the secret is shown once, with a copy button and snippets', async () => {
    const account = await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/new`);
    await expectEveryControlLabelled(page);
    await page.getByLabel('Endpoint URL').fill('https://crm.example.com/calls');
    await page.getByLabel('Description').fill('CRM');
    // Every kind is ticked by default; nothing ticked at all is refused, naming the field.
    await expect(page.getByRole('checkbox', { name: /^Every kind of event/ }).isChecked()).resolves.toBe(
      true,
    );
    await page.getByRole('checkbox', { name: /^Every kind of event/ }).uncheck();
    await page.getByRole('checkbox', { name: /^call_created/ }).uncheck();
    await page.getByRole('checkbox', { name: /^call_ended/ }).uncheck();
    await page.getByRole('button', { name: 'Create hook' }).click();
    await expect(page.locator('#events-error').textContent()).resolves.toBe(
      'Choose at least one kind of event, or every kind.',
    );
    await page.getByRole('checkbox', { name: /^call_ended/ }).check();
    await page.getByRole('checkbox', { name: /^Sign every request/ }).check();
    await screenshot(page, 'hook-form-events-signing');
    await page.getByRole('button', { name: 'Create hook' }).click();

    await page.getByRole('heading', { name: 'Signing secret', level: 1 }).waitFor();
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [hook] = await w.store.hooks.list(account.id);
    expect(hook).toMatchObject({ events: ['call_ended'], signing: true });
    await expect(w.store.hooks.target(hook!.id)).resolves.toMatchObject({ signing: { current: secret } });
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Node.js verification').textContent()).resolves.toContain(
      'wh.verify(rawBody, req.headers); // throws',
    );
    await expect(page.getByLabel('Python verification').textContent()).resolves.toContain(
      'hmac.compare_digest',
    );
    await screenshot(page, 'signing-secret');

    // Never again: the hook page shows that it signs, and the preview the headers, signature masked.
    await page.getByRole('link', { name: /go to the hook/ }).click();
    await page.getByRole('heading', { name: 'CRM', level: 1 }).waitFor();
    const content = await page.content();
    expect(content).not.toContain(secret);
    expect(content).not.toContain(secret.slice(6, 20));
    await expect(page.locator('[data-hook-events]').textContent()).resolves.toBe('call_ended');
    await expect(page.locator('[data-hook-signing]').textContent()).resolves.toContain(
      'On (Standard Webhooks)',
    );
    const preview = (await page.locator('[data-request-preview]').textContent()) ?? '';
    expect(preview).toContain(
      'webhook-id: evt_sample\nwebhook-timestamp: 1456821115\nwebhook-signature: v1,••••\n',
    );
    await screenshot(page, 'hook-signing');

    // A rotation shows the new secret once, and says both sign for 24 hours.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { name: 'Signing secret', level: 1 }).waitFor();
    const rotated = await page.getByLabel('Signing secret').inputValue();
    expect(rotated).not.toBe(secret);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('next 24 hours');
    await expect(w.store.hooks.target(hook!.id)).resolves.toMatchObject({
      signing: { current: rotated, previous: { secret } },
    });
  });

  it('edits the kinds of a hook with the checkboxes, and shows no signature headers when it does not sign', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', events: ['call_created'] });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await expect(page.getByRole('checkbox', { name: /^call_created/ }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: /^call_ended/ }).isChecked()).resolves.toBe(false);
    await page.getByRole('checkbox', { name: /^Every kind of event/ }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    expect((await w.store.hooks.get(account.id, hook.id))?.events).toBe('all');
    expect(await page.locator('[data-request-preview]').textContent()).not.toContain('webhook-');
  });

  it('unticking one kind beside "Every kind" saves exactly the kinds left ticked: that kind is not delivered', async () => {
    const account = await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/new`);
    await page.getByLabel('Endpoint URL').fill('https://crm.example.com/calls');
    await page.getByRole('checkbox', { name: /^call_ended/ }).uncheck();
    await expect(page.getByRole('checkbox', { name: /^Every kind of event/ }).isChecked()).resolves.toBe(
      false,
    );
    await page.getByRole('button', { name: 'Create hook' }).click();
    await expect(page.locator('[data-hook-events]').textContent()).resolves.toBe('call_created');
    const [hook] = await w.store.hooks.list(account.id);
    expect(hook?.events).toEqual(['call_created']);

    const ended = await w.producer.publish(account.id, {
      type: 'call_ended',
      data: { call_id: 'c-9', duration: '12.5' },
    });
    expect(ended.hooks).toEqual([]);
    await expect(w.hookQueues.waitingCount(hook!.id)).resolves.toBe(0);
    await w.producer.publish(account.id, {
      type: 'call_created',
      data: { call_id: 'c-9', direction: 'outbound', from: 'a', from_cnam: 'A', to: 'b', rate: '0.0' },
    });
    await expect(w.hookQueues.waitingCount(hook!.id)).resolves.toBe(1);
  });
});
