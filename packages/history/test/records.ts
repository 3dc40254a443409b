import { newId, type AttemptRecord } from '@hookline/core';

/** A plausible attempt record; fields can be overridden. */
export function attemptRecord(overrides: Partial<AttemptRecord> = {}): AttemptRecord {
  const at = overrides.attempted_at ?? new Date().toISOString();
  return {
    attempt_id: newId('att', Date.parse(at)),
    event_id: newId('evt', Date.parse(at)),
    event_type: 'call_created',
    call_id: '9309b4a2-d59f',
    trigger: 'auto',
    outcome: 'delivered',
    status_code: 200,
    duration_ms: 41,
    attempted_at: at,
    response_excerpt: 'ok',
    account_id: 'acct_00000000000000000001',
    hook_id: 'hk_00000000000000000001',
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:9/webhook',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'X-Service-Event-Type': 'call_created',
        Authorization: 'Bearer ••••oken',
        'User-Agent': 'hookline/0.1',
      },
      body: '{"EventType":"call_created","call_id":"9309b4a2-d59f"}',
    },
    ...overrides,
  };
}
