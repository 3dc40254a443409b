import { SAMPLE_CALL_DATA } from '@hookline/core';
import { csrfOf, postForm, signInOverHttp } from './support/http-session';
import { PASSWORD, useWebsite } from './support/website';

// "Re-enable, discarding older events" answers, like the other choices, with how many held events it covered
// (README: "the answer says how many"): those discarded and those queued, counted in words that agree.
describe('re-enabling with only the events accepted since a time', () => {
  const w = useWebsite();
  const pause = () => new Promise((resolve) => setTimeout(resolve, 15));
  const inWords = (at: Date) =>
    `${new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'medium' }).format(at)} (UTC)`;

  it.each([
    [
      1,
      2,
      'Hook re-enabled. 1 held event accepted before {since} was discarded; 2 held events accepted since then are queued for delivery, in order.',
    ],
    [
      2,
      0,
      'Hook re-enabled. 2 held events accepted before {since} were discarded; 0 held events accepted since then are queued for delivery, in order.',
    ],
    [
      0,
      1,
      'Hook re-enabled. 0 held events accepted before {since} were discarded; 1 held event accepted since then is queued for delivery, in order.',
    ],
  ])(
    '%i held before the time and %i since: says how many were discarded and queued',
    async (before, after, said) => {
      const email = `since-${before}-${after}@acme.test`;
      const account = await w.account(email);
      const hook = await w.hook(account.id, { url: 'https://crm.example.com/in' });
      await w.suspend(hook.id, 3);
      const publish = (call_id: string) =>
        w.producer.publish(account.id, { type: 'call_created', data: { ...SAMPLE_CALL_DATA, call_id } });
      for (let i = 0; i < before; i++) await publish(`old-${i}`);
      await pause();
      const since = new Date();
      await pause();
      for (let i = 0; i < after; i++) await publish(`new-${i}`);

      const session = await signInOverHttp(w.baseUrl, email, PASSWORD);
      const page = await (
        await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
      ).text();
      const form =
        /name="held" value="since" \/>\s*<input type="hidden" name="seen_suspended_at" value="([^"]*)" \/>\s*<input type="hidden" name="seen_held" value="(\d+)" \/>/.exec(
          page,
        )!;
      const answer = await postForm(w.baseUrl, session, `/hooks/${hook.id}/enable`, {
        _csrf: csrfOf(page),
        held: 'since',
        seen_suspended_at: form[1]!,
        seen_held: form[2]!,
        since: since.toISOString().slice(0, 23),
        tz: 'UTC',
      });
      expect(answer.status).toBe(303);
      expect(await w.hookQueues.waitingCount(hook.id)).toBe(after);

      const shown = await (
        await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
      ).text();
      const message = /<div class="alert alert-success" role="status"[^>]*><p>([^<]*)<\/p>/.exec(shown)?.[1];
      expect(message).toBe(said.replace('{since}', inWords(since)));
    },
  );
});
