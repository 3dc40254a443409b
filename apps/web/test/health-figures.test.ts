import type { AttemptRecord, RecordedOutcome } from '@hookline/core';
import { signInOverHttp } from './support/http-session';
import { deliveredAttempt, PASSWORD, useWebsite } from './support/website';

// The health card's figures agree with one another, as the API's do (README, Delivery history): attempts are
// the tries made, the outcome counts under the chart add up to them, events dropped without an attempt are
// counted apart, and latency is of the endpoint's answers and timeouts.
describe("a hook's health card", () => {
  const w = useWebsite();

  it('counts attempts as its outcome counts add up, dropped events apart, timeouts in the latency', async () => {
    const account = await w.account('ops@acme.test');
    const hook = await w.hook(account.id, { url: 'https://crm.example.com/hook', description: 'CRM' });
    const now = Date.now();
    const record = (
      n: number,
      outcome: RecordedOutcome,
      extra: Partial<AttemptRecord> = {},
    ): AttemptRecord => {
      const { status_code: _status, ...base } = deliveredAttempt(
        account.id,
        hook.id,
        now - n * 60_000,
        `c-${n}`,
      );
      return { ...base, outcome, ...extra };
    };
    await w.history.writer.write([
      record(1, 'delivered', { status_code: 200, duration_ms: 40 }),
      record(2, 'delivered', { status_code: 200, duration_ms: 40 }),
      record(3, 'delivered', { status_code: 200, duration_ms: 40 }),
      record(4, 'failed', { status_code: 500, duration_ms: 30, error: 'HTTP 500' }),
      record(5, 'timed_out', { duration_ms: 15000, error: 'no response within 15000 ms' }),
      record(6, 'discarded', { duration_ms: 0, error: 'discarded by operator when the hook was re-enabled' }),
      record(7, 'discarded', { duration_ms: 0, error: 'discarded by operator when the hook was re-enabled' }),
      record(8, 'expired', { duration_ms: 0, error: 'dropped: more than 10000 events held' }),
    ]);

    const session = await signInOverHttp(w.baseUrl, 'ops@acme.test', PASSWORD);
    const page = await (
      await fetch(`${w.baseUrl}/hooks/${hook.id}`, { headers: { cookie: session.cookie } })
    ).text();
    const text = (pattern: RegExp) =>
      pattern
        .exec(page)![1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    expect(text(/<dl class="stats">([\s\S]*?)<\/dl>/)).toBe(
      'Success rate 60.0% Attempts 5 Latency p50 40 ms Latency p99 15000 ms',
    );
    expect(text(/<p class="outcome-counts" data-outcome-counts>([\s\S]*?)<\/p>/)).toBe(
      'Delivered 3 Failed 1 Timed out 1',
    );
    expect(text(/<p class="outcome-counts" data-dropped>([\s\S]*?)<\/p>/)).toBe(
      'Dropped without an attempt: Expired 1 Discarded 2',
    );
  });
});
