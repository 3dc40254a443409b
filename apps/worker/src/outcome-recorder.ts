import type { Redis } from 'ioredis';
import type { AttemptResult, DeliveryRecord, RecordedOutcome, RedisKeys } from '@hookline/core';
import { OUTCOME_STREAM_MAXLEN, outcomeToFields, type DeliverJobData } from '@hookline/queue';
import type { AttemptLedger } from '@hookline/store';
import type { Logger, Metrics } from '@hookline/telemetry';

export interface RecordedAttempt extends Partial<Omit<AttemptResult, 'outcome'>> {
  readonly outcome: RecordedOutcome;
  readonly startedAt: number;
}

/**
 * Writes one outcome everywhere it is read: the hook's delivery log (customers; this also marks the attempt
 * done), the outcome stream (the suspension monitor), metrics and a log line (operators).
 */
export class OutcomeRecorder {
  constructor(
    private readonly deps: {
      redis: Redis;
      keys: RedisKeys;
      attempts: Pick<AttemptLedger, 'finish'>;
      metrics: Metrics;
      logger: Logger;
    },
  ) {}

  async record(job: DeliverJobData, attempt: RecordedAttempt): Promise<void> {
    const { hookId, accountId, event } = job;
    const entry: DeliveryRecord = {
      event_id: event.id,
      event_type: event.type,
      outcome: attempt.outcome,
      duration_ms: attempt.durationMs ?? 0,
      attempted_at: new Date(attempt.startedAt).toISOString(),
      ...(attempt.statusCode !== undefined ? { status_code: attempt.statusCode } : {}),
      ...(attempt.error !== undefined ? { error: attempt.error } : {}),
      ...(attempt.responseExcerpt ? { response_excerpt: attempt.responseExcerpt } : {}),
    };
    const fields = outcomeToFields({
      hookId,
      accountId,
      eventId: event.id,
      outcome: attempt.outcome,
      at: attempt.startedAt,
      ...(attempt.statusCode !== undefined ? { statusCode: attempt.statusCode } : {}),
      ...(attempt.error !== undefined ? { error: attempt.error } : {}),
    });
    // Two independent writes, sent together: one round trip. They live in different slots of a Redis Cluster
    // (the hook's and the global stream's), so they cannot be one script.
    await Promise.all([
      this.deps.attempts.finish(hookId, entry),
      this.deps.redis.xadd(this.deps.keys.outcomes(), 'MAXLEN', '~', OUTCOME_STREAM_MAXLEN, '*', ...fields),
    ]);
    this.deps.metrics.deliveries.inc({ outcome: attempt.outcome });
    if (attempt.durationMs !== undefined)
      this.deps.metrics.deliveryDuration.observe({ outcome: attempt.outcome }, attempt.durationMs / 1000);
    const line = {
      hookId,
      accountId,
      eventId: event.id,
      outcome: attempt.outcome,
      status: attempt.statusCode,
      ms: attempt.durationMs,
      error: attempt.error,
    };
    if (attempt.outcome === 'delivered') this.deps.logger.debug(line, 'delivery');
    else this.deps.logger.info(line, 'delivery not accepted');
  }
}
