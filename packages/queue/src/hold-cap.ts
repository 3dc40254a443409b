import type { Redis } from 'ioredis';
import type { DeliveryRecord, RedisKeys } from '@hookline/core';
import type { DeliveryLog } from '@hookline/store';
import type { DeliverJobData } from './jobs';

// Takes the oldest held events off a paused hook's queue, atomically, so that two callers (two producers
// over the cap at once, or a discard racing the cap) never drop or record the same event twice.
// BullMQ 6 keeps a paused queue's jobs in its `wait` list (LPUSH on add, workers pop from the right), so the
// oldest is at the right. The job's keys go in the same script (BullMQ's removeJobKeys set): removing each
// through BullMQ would scan the whole list per job.
// KEYS: queue meta, wait list. ARGV: how many to keep, most to drop now, job key prefix.
// Returns [jobId, job data JSON, ...], oldest first.
const DROP_HELD = `
if redis.call('HEXISTS', KEYS[1], 'paused') == 0 then return {} end
local excess = redis.call('LLEN', KEYS[2]) - tonumber(ARGV[1])
if excess <= 0 then return {} end
local dropped = {}
for _ = 1, math.min(excess, tonumber(ARGV[2])) do
  local id = redis.call('RPOP', KEYS[2])
  if not id then break end
  local jobKey = ARGV[3] .. id
  dropped[#dropped + 1] = id
  dropped[#dropped + 1] = redis.call('HGET', jobKey, 'data') or ''
  redis.call('DEL', jobKey, jobKey .. ':logs', jobKey .. ':dependencies', jobKey .. ':processed',
    jobKey .. ':failed', jobKey .. ':unsuccessful')
end
return dropped
`;

// Bounds one script run (and so how long Redis is busy with it); callers loop.
const BATCH = 500;

export interface HoldDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly deliveryLog: DeliveryLog;
  readonly clock?: () => Date;
}

export type DropOutcome = 'expired' | 'discarded';

/**
 * Drops held events of a paused hook beyond the newest `keep`, oldest first, and records each in the hook's
 * delivery log with `outcome`. Does nothing when the hook is not paused. Returns how many were dropped.
 * Nothing goes to the outcome stream: a dropped event was never attempted and must not extend a streak.
 */
export async function dropHeldEvents(
  deps: HoldDeps,
  hookId: string,
  keep: number,
  outcome: DropOutcome,
  why: string,
): Promise<number> {
  const { redis, keys } = deps;
  const clock = deps.clock ?? (() => new Date());
  let total = 0;
  for (;;) {
    const reply = (await redis.eval(
      DROP_HELD,
      2,
      keys.hookQueueMeta(hookId),
      keys.hookQueueKey(hookId, 'wait'),
      keep,
      BATCH,
      keys.hookQueueKey(hookId, ''),
    )) as string[];
    const at = clock().toISOString();
    const records: DeliveryRecord[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2)
      records.push(dropRecord(reply[i]!, reply[i + 1]!, outcome, at, why));
    // In order, so the log reads oldest to newest like the deliveries it stands in for.
    for (const record of records) await deps.deliveryLog.append(hookId, record);
    total += records.length;
    if (records.length < BATCH) return total;
  }
}

function dropRecord(
  jobId: string,
  json: string,
  outcome: DropOutcome,
  at: string,
  why: string,
): DeliveryRecord {
  let data: Partial<DeliverJobData> = {};
  try {
    data = JSON.parse(json) as DeliverJobData;
  } catch {
    // A job without readable data is still recorded, under its job id (which is the event id).
  }
  return {
    event_id: data.event?.id ?? jobId,
    event_type: data.event?.type ?? 'unknown',
    outcome,
    duration_ms: 0,
    attempted_at: at,
    error: why,
  };
}

/**
 * The hold cap for the producer: after an event is added to a paused hook's queue, drops the oldest held
 * events beyond `holdMax` (HOOKLINE_HOLD_MAX) and records them `expired`.
 */
export function createHoldCap(deps: HoldDeps): (hookId: string, holdMax: number) => Promise<number> {
  return (hookId, holdMax) =>
    dropHeldEvents(
      deps,
      hookId,
      holdMax,
      'expired',
      `dropped while the hook was suspended: more than ${holdMax} events held`,
    );
}
