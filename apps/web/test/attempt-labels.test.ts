import { expectNoAxeViolations, screenshot, signIn, useBrowser } from './support/browser';
import { deliveredAttempt, PASSWORD, useWebsite } from './support/website';

jest.setTimeout(60000);

// README "The website": ids appear only as labelled reference values. An attempt's page names its id as a term
// of its description list, like every other value there, so a screen reader says what the value is.
describe("an attempt's page (browser)", () => {
  const w = useWebsite();
  const browser = useBrowser();

  it('labels the attempt id (Attempt ID), and shows it nowhere unlabelled', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const record = deliveredAttempt(account.id, hook.id, Date.now() - 60_000, 'c-42');
    await w.history.writer.write([record]);
    const page = await browser.page(undefined, { timezoneId: 'Asia/Kolkata' });
    await signIn(page, w.baseUrl, 'ops@acme.test', PASSWORD);
    await page.goto(`${w.baseUrl}/hooks/${hook.id}/deliveries/${record.attempt_id}`);

    // Each element holding the id as its own text, with the term it is the value of.
    const shown = await page.evaluate(
      `Array.from(document.querySelectorAll('main *'))
        .filter((el) => el.children.length === 0 && el.textContent.trim() === ${JSON.stringify(record.attempt_id)})
        .map((el) => [el.tagName, el.tagName === 'DD' && el.previousElementSibling ? el.previousElementSibling.textContent.trim() : ''])`,
    );
    expect(shown).toEqual([['DD', 'Attempt ID']]);
    await expectNoAxeViolations(page);
    await screenshot(page, 'attempt-id-labelled');
  });
});
