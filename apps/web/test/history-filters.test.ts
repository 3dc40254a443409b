import { signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

// The log's filters and the search by call id refuse what the history could not look for, in the page's own
// words, instead of failing: PostgreSQL text cannot hold a NUL (the read was a 500), and a date the calendar
// does not have was rolled over into the next month.
describe('history filters on the website', () => {
  const w = useWebsite();

  async function signedIn() {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook' });
    const { cookie } = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const get = async (path: string) => {
      const res = await fetch(`${w.baseUrl}${path}`, { headers: { cookie } });
      return { status: res.status, page: await res.text() };
    };
    return { hook, get };
  }

  const errorOf = (page: string, field: string) =>
    new RegExp(`<span class="field-error" id="${field}-error">([^<]*)</span>`).exec(page)?.[1];

  it('answers a call id with a NUL in Find a call with the box’s own message', async () => {
    const { get } = await signedIn();
    for (const callId of ['%00', 'a%00b', 'a%0Ab']) {
      const { status, page } = await get(`/search?call_id=${callId}`);
      expect(status).toBe(400);
      expect(page).toContain('<p class="field-error">A call id must not contain control characters.</p>');
      // The title names no call it could not look for.
      expect(page).not.toMatch(/<title>Call /);
    }
    const long = await get(`/search?call_id=${'x'.repeat(257)}`);
    expect(long.status).toBe(400);
    expect(long.page).toContain('A call id must be at most 256 characters.');
    expect((await get('/search?call_id=c-42')).status).toBe(200);
  });

  it("shows the hook log's filter errors next to the fields, the log unfiltered by them", async () => {
    const { hook, get } = await signedIn();
    const nul = await get(`/hooks/${hook.id}?call_id=a%00`);
    expect(nul.status).toBe(200);
    expect(errorOf(nul.page, 'call_id')).toBe('A call id must not contain control characters.');

    for (const [field, value] of [
      ['since', '2026-02-30T00:00'],
      ['until', '2026-11-31T10:00:00'],
    ]) {
      const { status, page } = await get(`/hooks/${hook.id}?${field}=${value}`);
      expect(status).toBe(200);
      expect(errorOf(page, field!)).toBe('That date or time does not exist.');
    }
    expect(errorOf((await get(`/hooks/${hook.id}?since=2024-02-29T00:00`)).page, 'since')).toBeUndefined();
  });

  it('offers the outcomes in the words the log shows them in, not their codes', async () => {
    const { hook, get } = await signedIn();
    const { page } = await get(`/hooks/${hook.id}?outcome=error`);
    const select = /<select name="outcome"[^>]*>([\s\S]*?)<\/select>/.exec(page)![1]!;
    const options = [...select.matchAll(/<option value="([^"]*)"\s*(selected)?\s*>([^<]*)<\/option>/g)];
    expect(options.map(([, value, selected, label]) => [value, label, selected ?? ''])).toEqual([
      ['', 'Any', ''],
      ['delivered', 'Delivered', ''],
      ['failed', 'Failed', ''],
      ['timed_out', 'Timed out', ''],
      ['error', 'Connection error', 'selected'],
      ['blocked', 'Blocked', ''],
      ['unknown', 'Unknown', ''],
      ['expired', 'Expired', ''],
      ['discarded', 'Discarded', ''],
      ['erased', 'Erased', ''],
    ]);
  });
});
