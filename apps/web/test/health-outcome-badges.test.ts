import { UNREADABLE_CREDENTIALS, type AttemptRecord, type RecordedOutcome } from '@hookline/core';
import { expectNoAxeViolations, screenshot, signIn, useBrowser } from './support/browser';
import { deliveredAttempt, PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

const NO_TOKEN =
  'no OAuth 2.0 token from http://127.0.0.1:40123/oauth/token: the token endpoint answered 401 ' +
  '(invalid_client: unknown client); nothing was sent to the endpoint';
const PROXY = 'not sent: the egress proxy 127.0.0.1:3128 refused CONNECT 203.0.113.7:443: 403 Forbidden';

// The health card counts a hook's attempts by outcome under the badges the log gives them: an attempt that got
// no OAuth 2.0 token is "No token", one the egress proxy kept back or whose credentials could not be read is
// "Not sent", and only a connection that failed is a "Connection error".
describe("the health card's outcome counts (browser)", () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('read as the log badges the same attempts', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const now = Date.now();
    const record = (n: number, outcome: RecordedOutcome, error?: string): AttemptRecord => {
      const { status_code: _status, ...base } = deliveredAttempt(
        account.id,
        hook.id,
        now - n * 60_000,
        `c-${n}`,
      );
      return outcome === 'delivered'
        ? { ...base, outcome, status_code: 200 }
        : { ...base, outcome, duration_ms: 20, ...(error ? { error } : {}) };
    };
    await w.history.writer.write([
      record(1, 'delivered'),
      record(2, 'delivered'),
      record(3, 'error', 'ECONNREFUSED 203.0.113.7:443'),
      record(4, 'error', NO_TOKEN),
      record(5, 'error', NO_TOKEN),
      record(6, 'error', PROXY),
      record(7, 'error', UNREADABLE_CREDENTIALS),
    ]);

    const page = await browser.page(undefined, { timezoneId: 'Asia/Kolkata' });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}`);
    const counts = ((await page.locator('[data-outcome-counts]').textContent()) ?? '').replace(/\s+/g, ' ');
    expect(counts.trim()).toBe('Delivered 2 Connection error 1 No token 2 Not sent 2');

    // The log's badges of the same attempts, counted: the same words, the same numbers.
    const badges = await page.locator('#delivery-log td[data-label="Outcome"] .badge').allTextContents();
    const tally = new Map<string, number>();
    for (const badge of badges) tally.set(badge.trim(), (tally.get(badge.trim()) ?? 0) + 1);
    expect(Object.fromEntries(tally)).toEqual({
      Delivered: 2,
      'Connection error': 1,
      'No token': 2,
      'Not sent': 2,
    });
    await expectNoAxeViolations(page);
    await screenshot(page, 'health-outcome-badges');
  });
});
