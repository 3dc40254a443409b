import type { DeliveryRecord, RecordedOutcome } from '@hookline/core';
import { streakReason } from './suspension-reason';

const T0 = Date.parse('2026-11-20T10:11:12.000Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;

const record = (outcome: RecordedOutcome, extra: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  attempt_id: 'att_000000000001',
  trigger: 'auto',
  event_id: 'evt_000000000001',
  event_type: 'call_created',
  outcome,
  duration_ms: 5,
  attempted_at: new Date(T0).toISOString(),
  ...extra,
});

describe('streakReason', () => {
  it('says how long the streak lasted, rounded down, in the largest unit that reads well', () => {
    const head = (ms: number) => streakReason(10, T0, T0 + ms, undefined);
    expect(head(400)).toBe('10 consecutive failures within a second');
    expect(head(1 * SECOND)).toBe('10 consecutive failures over 1 second');
    expect(head(90 * SECOND)).toBe('10 consecutive failures over 90 seconds');
    expect(head(10 * MINUTE + 59 * SECOND)).toBe('10 consecutive failures over 10 minutes');
    expect(head(3 * 60 * MINUTE)).toBe('10 consecutive failures over 3 hours');
    expect(head(3 * 24 * 60 * MINUTE)).toBe('10 consecutive failures over 3 days');
    expect(streakReason(1, T0, T0 + 10 * MINUTE, undefined)).toBe('1 failure over 10 minutes');
  });

  it('says what the last failure was in words', () => {
    const last = (r: DeliveryRecord) => streakReason(5, T0, T0 + 10 * MINUTE, r).split('; the last: ')[1];
    expect(last(record('failed', { status_code: 500 }))).toBe('the endpoint answered 500');
    expect(last(record('failed', { status_code: 302 }))).toBe('the endpoint answered 302');
    expect(last(record('timed_out', { error: 'no response within 15000 ms' }))).toBe(
      'the endpoint did not answer in time',
    );
    expect(last(record('error', { error: 'ECONNREFUSED 203.0.113.7:443' }))).toBe(
      'the endpoint refused the connection',
    );
    expect(last(record('error', { error: 'ENOTFOUND crm.example.com' }))).toBe(
      'the host name could not be found',
    );
    expect(last(record('error', { error: 'something new' }))).toBe('the connection to the endpoint failed');
    expect(last(record('blocked', { error: 'destination 10.0.0.1 is not allowed' }))).toBe(
      'the endpoint’s address is not allowed by the network policy',
    );
    expect(last(record('unknown'))).toBe('the attempt was interrupted, and it may or may not have arrived');
  });

  it('says when nothing reached the endpoint: no OAuth 2.0 token, or the egress proxy kept the request back', () => {
    const last = (r: DeliveryRecord) => streakReason(5, T0, T0 + 10 * MINUTE, r).split('; the last: ')[1];
    const noToken = (why: string) =>
      record('error', {
        error: `no OAuth 2.0 token from https://auth.example.com/token: ${why}; nothing was sent to the endpoint`,
      });
    expect(last(noToken('the token endpoint answered 401 (invalid_client: unknown client)'))).toBe(
      'no OAuth 2.0 token could be had: the token endpoint answered 401 (the client id or secret was not ' +
        'accepted); nothing was sent to the endpoint',
    );
    expect(last(noToken('the token endpoint refused the connection (ECONNREFUSED 203.0.113.7:443)'))).toBe(
      'no OAuth 2.0 token could be had: the token endpoint refused the connection; nothing was sent to the endpoint',
    );
    expect(last(noToken('blocked: destination 10.0.0.1 is not allowed'))).toBe(
      'no OAuth 2.0 token could be had: the token endpoint’s address is not allowed by the network policy; ' +
        'nothing was sent to the endpoint',
    );
    expect(last(noToken('no response within 15000 ms'))).toBe(
      'no OAuth 2.0 token could be had: the token endpoint did not answer in time; nothing was sent to the endpoint',
    );
    expect(
      last(
        record('error', {
          error: 'not sent: the egress proxy 127.0.0.1:3128 refused CONNECT 203.0.113.7:443: 403 Forbidden',
        }),
      ),
    ).toBe('the egress proxy did not let the request out; nothing was sent to the endpoint');
  });

  it('never carries machine text: no ISO time, error code or address', () => {
    for (const r of [
      record('failed', { status_code: 500 }),
      record('error', { error: 'ECONNRESET 198.51.100.4:443' }),
      record('blocked', { error: 'destination 169.254.169.254 is not allowed' }),
      record('timed_out', { error: 'no response within 15000 ms' }),
    ]) {
      const reason = streakReason(10, T0, T0 + 11 * MINUTE, r);
      expect(reason).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
      expect(reason).not.toMatch(/\b[A-Z]{2,}[A-Z_]*\b|\d+\.\d+\.\d+\.\d+|\bms\b/);
    }
  });
});
