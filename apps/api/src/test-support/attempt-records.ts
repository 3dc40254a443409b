import { newId, type AttemptRecord } from '@hookline/core';

// Attempt records as the worker writes them, for the history API's tests: one made in one place, so the
// per-hook and the account-wide tests read the same shape.

/** The time of record 0; record n is attempted n seconds later. */
export const BASE = Date.UTC(2026, 10, 20, 9, 0, 0);

/** Record n of a hook: attempted at BASE + n s, for call `call-<n>`, delivered; fields can be overridden. */
export function attemptAt(
  acct: string,
  hookId: string,
  n: number,
  extra: Partial<AttemptRecord> = {},
): AttemptRecord {
  const at = BASE + n * 1000;
  return {
    attempt_id: newId('att', at),
    event_id: newId('evt', at),
    event_type: 'call_created',
    call_id: `call-${n}`,
    trigger: 'auto',
    outcome: 'delivered',
    status_code: 200,
    duration_ms: 12,
    attempted_at: new Date(at).toISOString(),
    response_excerpt: 'ok',
    account_id: acct,
    hook_id: hookId,
    request: {
      method: 'POST',
      url: 'https://hooks.example.com/webhook',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'X-Service-Event-Type': 'call_created',
        Authorization: 'Bearer ••••oken',
        'User-Agent': 'hookline/0.1',
      },
      body: `{"EventType":"call_created","call_id":"call-${n}"}`,
    },
    ...extra,
  };
}

/** The list line of a record, as the API shows it: no request, no account. */
export function logLine(r: AttemptRecord) {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { request, account_id, ...rest } = r;
  return rest;
}
