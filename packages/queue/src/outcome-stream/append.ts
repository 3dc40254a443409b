import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';
import { OUTCOME_STREAM_MAXLEN, outcomeToFields, type OutcomeEvent } from './codec';

/** Appends one outcome for the monitor; the stream is trimmed approximately to OUTCOME_STREAM_MAXLEN. */
export function appendOutcome(redis: Redis, keys: RedisKeys, outcome: OutcomeEvent): Promise<string | null> {
  return redis.xadd(keys.outcomes(), 'MAXLEN', '~', OUTCOME_STREAM_MAXLEN, '*', ...outcomeToFields(outcome));
}
