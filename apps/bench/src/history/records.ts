import { newId, type AttemptRecord } from '@hookline/core';

const BODY =
  '{"EventType":"call_created","call_id":"9309b4a2-d59f","direction":"outbound","from":"jonas1","from_cnam":"Jonas 1","to":"78791245","rate":0.0,"date":"2016-03-01T08:31:55.0000000"}';

/** A delivered attempt as a worker records it: the request as sent (Authorization masked), a short response. */
export function benchRecord(accountId: string, hookId: string, at: number, callId: string): AttemptRecord {
  return {
    attempt_id: newId('att', at),
    event_id: newId('evt', at),
    event_type: 'call_created',
    call_id: callId,
    trigger: 'auto',
    outcome: 'delivered',
    status_code: 200,
    duration_ms: 12,
    attempted_at: new Date(at).toISOString(),
    response_excerpt: '{"ok":true}',
    account_id: accountId,
    hook_id: hookId,
    request: {
      method: 'POST',
      url: 'https://crm.example.com/webhooks/hookline',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'X-Service-Event-Type': 'call_created',
        Authorization: 'Bearer ••••oken',
        'User-Agent': 'hookline/0.1',
      },
      body: BODY,
    },
  };
}
