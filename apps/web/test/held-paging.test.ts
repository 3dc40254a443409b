import { SAMPLE_CALL_DATA } from '@hookline/core';
import { signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

// A suspended hook's held events, a page at a time (product.md §15): the page's live part follows the hook on
// the page the customer chose, as the log's Older paging does, not back on the first one.
describe('held events paged on a live page', () => {
  const w = useWebsite();

  it('keeps the chosen page while more events are held', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/in' });
    await w.suspend(hook.id, 3);
    const publish = (n: number) =>
      w.producer.publish(account.id, {
        type: 'call_created',
        data: { ...SAMPLE_CALL_DATA, call_id: `held-${n}` },
      });
    for (let n = 1; n <= 23; n++) await publish(n);
    const { cookie } = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const page = await (
      await fetch(`${w.baseUrl}/hooks/${hook.id}?held_from=20`, { headers: { cookie } })
    ).text();
    expect(page).toContain('21–23 of 23');
    const live = /data-live-url="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&');
    expect(new URL(live, w.baseUrl).searchParams.get('held_from')).toBe('20');

    await publish(24);
    await publish(25);
    const part = await (await fetch(`${w.baseUrl}${live}`, { headers: { cookie } })).text();
    expect(part).toContain('21–25 of 25');
    expect(part).toContain('held-25');
    expect(part).not.toContain('held-1"');
  });

  // product.md §18: from the erasure's 202 on, the list shows nothing of the events it reaches (the monitor
  // removes them when it gets to them).
  it('shows no call id of a held event that a running erasure reaches', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/in' });
    await w.suspend(hook.id, 3);
    for (const callId of ['kept-1', 'erased-2'])
      await w.producer.publish(account.id, {
        type: 'call_created',
        data: { ...SAMPLE_CALL_DATA, call_id: callId },
      });
    await w.store.erasures.request(account.id, { kind: 'call_id', value: 'erased-2' }, 'operator');
    const { cookie } = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const page = await (await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie } })).text();
    expect(page).toContain('1–2 of 2');
    expect(page).toContain('data-held-call="kept-1"');
    expect(page).not.toContain('erased-2');
  });
});
