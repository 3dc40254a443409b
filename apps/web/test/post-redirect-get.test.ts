import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { buildDeliveryRequest, SAMPLE_CALL_CREATED, USER_AGENT } from '@hookline/core';
import { screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(90000);

/** Every POST the page sends, by URL: a reload or a step back must add none. */
function recordPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
  });
  return posts;
}

/** Reload, back, forward, as an impatient visitor would; nothing is posted again. */
async function revisit(page: Page, posts: string[]): Promise<void> {
  const before = posts.length;
  await page.reload();
  await page.goBack();
  await page.goForward();
  expect(posts.slice(before)).toEqual([]);
}

describe('every change happens once (browser, Post/Redirect/Get)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  /** A request signed now with the hook's stored secrets verifies with `secret` (the receiver's library). */
  async function expectVerifies(hookId: string, secret: string) {
    const target = await w.store.hooks.target(hookId);
    const request = buildDeliveryRequest(target!, SAMPLE_CALL_CREATED, {
      eventTypeHeader: 'X-Service-Event-Type',
      userAgent: USER_AGENT,
      sentAt: new Date(),
    });
    expect(() => new Webhook(secret).verify(request.body, { ...request.headers })).not.toThrow();
  }

  async function readSecretOnce(page: Page, posts: string[]): Promise<string> {
    await page.getByRole('heading', { name: 'Signing secret', level: 1 }).waitFor();
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    // Reloading the secret page shows it no more, and makes or rotates nothing.
    await page.reload();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'A signing secret is shown only once, and this one was shown already.',
    );
    expect(await page.content()).not.toContain(secret);
    await page.goBack();
    await page.goForward();
    expect(await page.content()).not.toContain(secret);
    expect(posts.filter((p) => p !== '/login')).toHaveLength(1);
    return secret;
  }

  it('creating a signing hook, turning signing on and rotating: each once, the secret shown once and it verifies', async () => {
    const account = await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    const posts = recordPosts(page);

    await page.goto(`${w.baseUrl}/hooks/new`);
    await page.getByLabel('Endpoint URL').fill('https://crm.example.com/calls');
    await page.getByLabel('Description').fill('CRM');
    await page.getByRole('checkbox', { name: /^Sign every request/ }).check();
    await page.getByRole('button', { name: 'Create hook' }).click();
    const secret = await readSecretOnce(page, posts);
    await screenshot(page, 'secret-shown-already');
    const hooks = await w.store.hooks.list(account.id);
    expect(hooks).toHaveLength(1);
    const hookId = hooks[0]!.id;
    await expectVerifies(hookId, secret);

    posts.length = 0;
    await page.goto(`${w.baseUrl}/hooks/${hookId}`);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await readSecretOnce(page, posts);
    expect(rotated).not.toBe(secret);
    // One rotation: the new secret and, for 24 h, the first one still verify.
    await expect(w.store.hooks.target(hookId)).resolves.toMatchObject({
      signing: { current: rotated, previous: { secret } },
    });
    await expectVerifies(hookId, rotated);
    await expectVerifies(hookId, secret);

    // Signing turned on by editing a hook that did not sign.
    const plain = await w.hook(account.id, { url: 'https://crm.example.com/other', description: 'Other' });
    posts.length = 0;
    await page.goto(`${w.baseUrl}/hooks/${plain.id}/edit`);
    await page.getByRole('checkbox', { name: /^Sign every request/ }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const turnedOn = await readSecretOnce(page, posts);
    await expectVerifies(plain.id, turnedOn);
    const updates = (await w.store.activity.list(account.id, 100)).filter(
      (e) => e.kind === 'hook.updated' && e.hook_id === plain.id,
    );
    expect(updates).toHaveLength(1);
  });

  it('every other changing form: reloading or going back after it sends nothing again', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    const posts = recordPosts(page);
    const activity = async (kind: string) =>
      (await w.store.activity.list(account.id, 100)).filter((e) => e.kind === kind).length;

    // Send test event (no worker runs here: it waits, then is held once the hook is suspended).
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').first().waitFor();
    await revisit(page, posts);
    await expect(w.hookQueues.waitingCount(hook.id)).resolves.toBe(1);
    await w.suspend(hook.id, 2);

    // Send again, from an attempt's page.
    const [failure] = (await w.reader.listForHook(hook.id, {}, { limit: 5 })).data;
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/deliveries/${failure!.attempt_id}`);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Send again' }).click();
    await page.getByRole('status').first().waitFor();
    await revisit(page, posts);
    await expect(w.hookQueues.waitingCount(hook.id)).resolves.toBe(2);

    // Re-enable.
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    await page.getByRole('button', { name: 'Re-enable and deliver the 2 held events' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Hook re-enabled.');
    await revisit(page, posts);
    await expect(activity('hook.enabled')).resolves.toBe(1);

    // Edit.
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await page.getByLabel('Description').fill('CRM calls');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Changes saved.');
    await revisit(page, posts);
    await expect(activity('hook.updated')).resolves.toBe(1);
    // The activity names what changed, and only that.
    const [updated] = (await w.store.activity.list(account.id, 100)).filter((e) => e.kind === 'hook.updated');
    expect(updated?.detail).toBe('description');

    // Password.
    await page.goto(`${w.baseUrl}/account`);
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('a much longer new password');
    await page.getByLabel('Repeat the new password').fill('a much longer new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Password changed.');
    await revisit(page, posts);

    // Delete.
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/delete`);
    await page.getByRole('button', { name: 'Delete hook' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Hook deleted.');
    await revisit(page, posts);
    await expect(activity('hook.deleted')).resolves.toBe(1);

    // Sign out.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    await revisit(page, posts);
    expect(posts).toEqual([
      `/hooks/${hook.id}/test`,
      `/hooks/${hook.id}/deliveries/${failure!.attempt_id}/resend`,
      `/hooks/${hook.id}/enable`,
      `/hooks/${hook.id}/edit`,
      '/account/password',
      `/hooks/${hook.id}/delete`,
      '/logout',
    ]);
  });
});
