import type { RecordedOutcome } from '@hookline/core';

// Workers append one entry per recorded outcome to a Redis stream; the suspension monitor consumes it with
// a consumer group, so every outcome is processed once even with several monitors, and none is lost when a
// monitor restarts (unacknowledged entries are claimed again).
export const MONITOR_GROUP = 'monitor';

export interface OutcomeEvent {
  readonly hookId: string;
  readonly accountId: string;
  readonly eventId: string;
  readonly outcome: RecordedOutcome;
  /** When the attempt started (ms since epoch). */
  readonly at: number;
  readonly statusCode?: number;
  readonly error?: string;
}

export function outcomeToFields(o: OutcomeEvent): string[] {
  const fields = [
    'hook',
    o.hookId,
    'account',
    o.accountId,
    'event',
    o.eventId,
    'outcome',
    o.outcome,
    'at',
    String(o.at),
  ];
  if (o.statusCode !== undefined) fields.push('status', String(o.statusCode));
  if (o.error !== undefined) fields.push('error', o.error);
  return fields;
}

export function outcomeFromFields(fields: readonly string[]): OutcomeEvent {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i]!, fields[i + 1]!);
  const status = map.get('status');
  const error = map.get('error');
  return {
    hookId: map.get('hook') ?? '',
    accountId: map.get('account') ?? '',
    eventId: map.get('event') ?? '',
    outcome: (map.get('outcome') ?? 'error') as RecordedOutcome,
    at: Number(map.get('at') ?? 0),
    ...(status !== undefined ? { statusCode: Number(status) } : {}),
    ...(error !== undefined ? { error } : {}),
  };
}

/** Streams are trimmed approximately to this length; the monitor keeps far behind it. */
export const OUTCOME_STREAM_MAXLEN = 1_000_000;
