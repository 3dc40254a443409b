import type { Page } from 'playwright-core';
import { startReceiver } from '@hookline/testing';
import { expectNoAxeViolations, screenshot, signIn, useBrowser } from './support/browser';
import { PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

const CALL = { direction: 'outbound', from: 'jonas1', from_cnam: 'Jonas 1', to: '78791245', rate: '0.0' };

/** What holds the focus: its tag, id, role and text, as a screen reader user would land on it. */
async function focused(page: Page): Promise<{ tag: string; id: string; role: string; text: string }> {
  return (await page.evaluate(`(() => {
    const el = document.activeElement;
    return {
      tag: el ? el.tagName : '',
      id: el ? el.id : '',
      role: (el && el.getAttribute('role')) || '',
      text: ((el && el.textContent) || '').trim().replace(/\\s+/g, ' '),
    };
  })()`)) as { tag: string; id: string; role: string; text: string };
}

// Where the focus goes after a form: a screen reader (or a keyboard) starts at what the answer is about — the
// first field to fix after a refusal, the message after a change — never at the top of the page.
describe('the focus after a form (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('a refused hook form with no kind ticked focuses the first box of Events, marked and described', async () => {
    await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/new`);
    await page.getByLabel('Endpoint URL').fill('https://crm.example.com/calls');
    await page.getByRole('checkbox', { name: /Every kind of event/ }).uncheck();
    await page.getByRole('checkbox', { name: /call_created/ }).uncheck();
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.locator('#events-error').waitFor();

    await expect(focused(page)).resolves.toMatchObject({ tag: 'INPUT', id: 'events_all-1' });
    const boxes = page.locator('[data-kinds] input[type="checkbox"]');
    await expect(
      boxes.evaluateAll((els) => els.map((el) => el.getAttribute('aria-invalid'))),
    ).resolves.toEqual(['true', 'true']);
    // The group is described by its error, so entering it (on the first box) reads why.
    const group = page.getByRole('group', { name: 'Events' });
    await expect(group.getAttribute('aria-describedby')).resolves.toBe('events-hint events-error');
    await expectNoAxeViolations(page);
    await screenshot(page, 'focus-events-refused');
  });

  it('a refused filter focuses its first field', async () => {
    await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/new`);
    await page.getByLabel('Endpoint URL').fill('https://crm.example.com/calls');
    await page.getByLabel('Filter 1: field').selectOption('from_cnam');
    await page.getByLabel('Filter 1: condition').selectOption('in');
    await page.getByLabel('Filter 1: value').fill('"Smith, John');
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.locator('#filter-error').waitFor();
    await expect(focused(page)).resolves.toMatchObject({ tag: 'SELECT', id: 'filter_field_0' });
  });

  it('a stale edit (409) focuses the message saying the hook changed since the form was opened', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const page = await browser.page(undefined, { timezoneId: 'Asia/Kolkata' });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/edit`);
    await w.store.hooks.update(account.id, hook.id, { description: 'CRM (API)' }, 'operator');
    await page.getByLabel('Description').fill('CRM (typed)');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    expect(answer.status()).toBe(409);
    await page.locator('[data-changed-meanwhile]').waitFor();
    await expect(focused(page)).resolves.toMatchObject({ role: 'alert' });
    await expect(focused(page).then((f) => f.text)).resolves.toMatch(
      /^This hook was changed since you opened this form .*nothing was saved/,
    );
    await expectNoAxeViolations(page);
    await screenshot(page, 'focus-edit-changed-meanwhile');
  });

  it('an empty sign-in marks the empty fields invalid and focuses the first', async () => {
    await w.account('ops@acme.test');
    const page = await browser.page();
    await page.goto(`${w.baseUrl}/login`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Enter your email and password.');
    await expect(focused(page)).resolves.toMatchObject({ id: 'email' });
    await expect(page.getByLabel('Email').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByLabel('Password').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByLabel('Password').getAttribute('aria-describedby')).resolves.toBe('login-error');
    await expectNoAxeViolations(page);
    await screenshot(page, 'focus-login-empty');

    // The email typed, the password forgotten: the password is the field to fix.
    await page.getByLabel('Email').fill('ops@acme.test');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await expect(focused(page)).resolves.toMatchObject({ id: 'password' });
    await expect(page.getByLabel('Email').getAttribute('aria-invalid')).resolves.toBeNull();
    await expect(page.getByLabel('Password').getAttribute('aria-invalid')).resolves.toBe('true');
  });

  it('after a change the focus is on the message saying what happened', async () => {
    const receiver = await startReceiver(() => ({ kind: 'status', status: 200 }));
    w.ctx.closeLater(receiver);
    const account = await w.account('ops@acme.test');
    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);

    await page.goto(`${w.baseUrl}/hooks/new`);
    await page.getByLabel('Endpoint URL').fill(receiver.url('/hook'));
    await page.getByLabel('Description').fill('CRM call log');
    await page.getByRole('button', { name: 'Create hook' }).click();
    await page.getByRole('heading', { name: 'CRM call log', level: 1 }).waitFor();
    await expect(focused(page)).resolves.toMatchObject({ role: 'status' });
    await expect(focused(page).then((f) => f.text)).resolves.toContain('Hook created.');
    await expectNoAxeViolations(page);
    await screenshot(page, 'focus-hook-created');

    const hookId = /\/hooks\/([^/?#]+)/.exec(page.url())![1]!;
    await w.suspend(hookId, 4);
    await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id: 'held-1' } });
    await page.reload();
    await page.getByRole('button', { name: 'Test & re-enable (then deliver the 1 held event)' }).click();
    await page.locator('[data-hook-state]', { hasText: 'Active' }).waitFor();
    await expect(focused(page)).resolves.toMatchObject({ role: 'status' });
    await expect(focused(page).then((f) => f.text)).resolves.toContain('Hook re-enabled.');

    await w.suspend(hookId, 4);
    await w.producer.publish(account.id, { type: 'call_created', data: { ...CALL, call_id: 'held-2' } });
    await page.reload();
    await page.getByRole('button', { name: /^Re-enable and deliver/ }).click();
    await page.locator('[data-hook-state]', { hasText: 'Active' }).waitFor();
    await expect(focused(page)).resolves.toMatchObject({ role: 'status' });
    await expect(focused(page).then((f) => f.text)).resolves.toContain('Hook re-enabled.');
    await screenshot(page, 'focus-reenabled');

    // A page opened again (not answering a form) has no message, and leaves the focus where it was.
    await page.reload();
    await expect(focused(page)).resolves.toMatchObject({ tag: 'BODY' });
  });
});
