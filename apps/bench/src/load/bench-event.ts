import { SAMPLE_CALL_DATA, type PublishEventInput } from '@hookline/core';
import { stampedCallId } from '../event-stamp';

export const EVENT_TYPE_HEADER = 'X-Service-Event-Type';

/** The data of every bench event: the seed's sample, with the publish stamp in call_id. */
export function benchEventData(publishedAtMicros: number): Record<keyof typeof SAMPLE_CALL_DATA, string> {
  return { ...SAMPLE_CALL_DATA, call_id: stampedCallId(publishedAtMicros) };
}

export function benchEvent(publishedAtMicros: number): PublishEventInput {
  return {
    type: 'call_created',
    data: benchEventData(publishedAtMicros),
  };
}
