import type { AttemptRecord } from '@hookline/core';
import { streakReason } from '@hookline/suspension';
import { machineText } from '@hookline/testing';
import { screenshot, sentencesOf, signIn, useBrowser } from './support/browser';
import { deliveredAttempt, PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// An OAuth 2.0 hook whose token endpoint refused its client: the attempt is recorded, for operators and the
// API, with the token endpoint's address and its RFC 6749 error code. Every page a customer reads it on — the
// log, the health card's last failure, the suspension banner, the attempt's page — says it in words (§15).
describe('an attempt that got no OAuth 2.0 token, on the pages (browser)', () => {
  const w = useWebsite();
  const browser = useBrowser();

  const RECORDED =
    'no OAuth 2.0 token from http://127.0.0.1:40123/oauth/token: the token endpoint answered 401 ' +
    '(invalid_client: unknown client); nothing was sent to the endpoint';
  const SAID =
    'No OAuth 2.0 token could be had: the token endpoint answered 401 (the client id or secret was not ' +
    'accepted); nothing was sent to the endpoint';

  it('says why in words on the log, the health card, the banner and the attempt page', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, {
      url: 'https://crm.example.com/calls',
      description: 'CRM with OAuth',
      auth: {
        scheme: 'oauth2',
        token_url: 'http://127.0.0.1:40123/oauth/token',
        client_id: 'crm-client',
        client_secret: 'oauth-secret-7788',
      },
    });
    const at = Date.now() - 60_000;
    const { status_code: _none, ...attempt } = deliveredAttempt(account.id, hook.id, at, 'c-oauth');
    const record: AttemptRecord = { ...attempt, outcome: 'error', duration_ms: 25, error: RECORDED };
    // In the database, where the health card reads, and as the last failure of the suspension's streak.
    await w.history.writer.write([record]);
    await w.control.suspend(hook.id, streakReason(1, at, at, record), 'monitor', [record]);

    const page = await browser.page();
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const row = page.locator('#delivery-log tr[data-outcome="error"]');
    await expect(row.locator('td[data-label="Error"]').textContent()).resolves.toBe(SAID);
    // Its outcome too: nothing reached the endpoint, so no "Connection error" blames it.
    await expect(row.locator('td[data-label="Outcome"]').textContent()).resolves.toMatch(/^\s*No token\s*$/);
    await expect(page.locator('[data-suspension-banner] .failures li .badge').textContent()).resolves.toBe(
      'No token',
    );
    await expect(page.locator('[data-health]').textContent()).resolves.toContain(SAID);
    await expect(page.locator('[data-suspension-banner] .failures li').textContent()).resolves.toContain(
      SAID,
    );
    await expect(
      page.locator('[data-health] p', { hasText: 'Last failure' }).textContent(),
    ).resolves.not.toContain('127.0.0.1');
    // (The hook's settings name its token URL: a setting, not a sentence about what went wrong.)
    expect(machineText(await sentencesOf(page))).toEqual([]);

    await screenshot(page, 'log-no-token');
    await row.locator('a').first().click();
    await page.getByRole('heading', { name: 'Attempt', level: 1 }).waitFor();
    await expect(page.locator('.title-row .badge').textContent()).resolves.toBe('No token');
    await screenshot(page, 'attempt-no-token');
    const sentences = await sentencesOf(page);
    expect(sentences).toContain(SAID);
    expect(machineText(sentences)).toEqual([]);
    expect(sentences).not.toContain('127.0.0.1:40123');
  });
});
