import type { PublishEventInput } from '@hookline/core';
import { stampedCallId } from '../event-stamp';

export const EVENT_TYPE_HEADER = 'X-Service-Event-Type';

/** The payload of every bench event: the seed's sample, with the publish stamp in call_id. */
export const BENCH_EVENT_DATA = {
  direction: 'outbound',
  from: 'jonas1',
  from_cnam: 'Jonas 1',
  to: '78791245',
  rate: '0.0',
  date: '2016-03-01T08:31:55.0000000',
} as const;

export function benchEvent(publishedAtMicros: number): PublishEventInput {
  return {
    type: 'call_created',
    data: { call_id: stampedCallId(publishedAtMicros), ...BENCH_EVENT_DATA },
  };
}
