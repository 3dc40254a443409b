import type { Redis } from 'ioredis';
import { hookQueueLayout, type RedisKeys } from '@hookline/redis';
import type { AttemptFence } from '../contracts';

/**
 * Makes the caller the holder of a hook's job, as BullMQ's moveToActive does: the job's lock holds the token.
 * Ledger tests need no queue, only the fence the ledger checks.
 */
export async function holdJob(
  redis: Redis,
  keys: RedisKeys,
  hookId: string,
  { jobId = '1', token = 'holder-a', lockMs = 30_000 } = {},
): Promise<AttemptFence> {
  await redis.set(hookQueueLayout(keys, hookId).jobLock(jobId), token, 'PX', lockMs);
  return { jobId, token };
}
