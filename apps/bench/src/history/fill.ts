import type { SqlClient } from '@hookline/history';
import { dayOf, Partitions } from '@hookline/history';

const DAY = 24 * 3600 * 1000;

/**
 * Fills `attempts` with `rows` records spread over the last `days` days, made by the database itself (one
 * INSERT … SELECT per day), the way a month of a busy deployment looks: `accounts` accounts of 5 hooks, a
 * call id shared by the account's 5 hooks (one event per call), realistic request bodies.
 */
export async function fillHistory(
  client: SqlClient,
  rows: number,
  options: { accounts: number; days: number; now: number },
): Promise<void> {
  const { accounts, days, now } = options;
  const partitions = new Partitions(client);
  const first = dayOf(now - (days - 1) * DAY);
  await partitions.ensure(Array.from({ length: days + 1 }, (_, i) => first + i * DAY));
  const perDay = Math.ceil(rows / days);
  for (let d = 0; d < days; d++) {
    const from = first + d * DAY;
    const count = Math.min(perDay, rows - d * perDay);
    if (count <= 0) break;
    // n numbers the rows of the whole fill; a call is 5 rows (one per hook of the account).
    await client.query(
      `INSERT INTO attempts (attempt_id, attempted_at, account_id, hook_id, event_id, event_type, call_id, trigger,
         outcome, status_code, duration_ms, error, response_excerpt, request_method, request_url, request_headers,
         request_body)
       SELECT 'att_' || lpad(to_hex(n), 20, '0'),
              to_timestamp(($2::bigint + (g * 86400000::bigint / $3)) / 1000.0),
              'acct_' || lpad(((n / 5) % $4)::text, 20, '0'),
              'hk_' || lpad(((n / 5) % $4)::text, 18, '0') || (n % 5),
              'evt_' || lpad(to_hex(n / 5), 20, '0'),
              'call_created',
              'call-' || (n / 5),
              'auto',
              CASE WHEN n % 50 = 0 THEN 'failed' ELSE 'delivered' END,
              CASE WHEN n % 50 = 0 THEN 503 ELSE 200 END,
              5 + n % 200,
              NULL,
              '{"ok":true}',
              'POST',
              'https://crm.example.com/webhooks/hookline',
              '[["Content-Type","application/json; charset=utf-8"],["X-Service-Event-Type","call_created"],["Authorization","Bearer ••••oken"]]'::jsonb,
              '{"EventType":"call_created","call_id":"call-' || (n / 5) || '","direction":"outbound","from":"jonas1","from_cnam":"Jonas 1","to":"78791245","rate":0.0}'
         FROM generate_series(0, $3 - 1) AS g, LATERAL (SELECT $1::bigint + g AS n) AS r`,
      [d * perDay, from, count, accounts],
    );
  }
  await client.query('ANALYZE attempts');
}
