import { Lru, LuaScript, type DeliveryRecord, type RedisKeys } from '@hookline/core';
import type { Redis } from 'ioredis';
import type { AttemptLedger, AttemptStart, HookTarget } from './contracts';
import { parseStoredHook, toHookTarget } from './hook-record';
import { APPLY_DELIVERED_LUA, STREAK_IDLE_TTL_MS, streakStep } from './streak-steps';
import type { SecretBox } from './secret-box';

// BullMQ runs a job again when the process holding it died (a stalled job). For a webhook that is the one
// thing we must not do blindly: the request may already have reached the endpoint. Before sending, the
// worker writes the event id to the hook's attempt key; recording the outcome appends `:done` in the same
// script that writes the delivery log. A re-run reads the key:
//   - another event's id (or nothing): this event was never attempted -> send it;
//   - this event's id: it may have left -> record `unknown`, do not send;
//   - this event's id + ':done': the outcome is recorded, only the job's completion was lost -> finish quietly.
//
// Each step is one script in the hook's slot (record, log, attempt and streak keys share the `{hk_…}` tag),
// so a delivery costs two round trips of hookline's own besides BullMQ's: one before the request, one after.
//
// The finish script also moves the hook's failure streak (streak-steps.ts) for a delivered outcome, so a
// healthy delivery writes nothing to the global outcome stream and costs the suspension monitor nothing:
// only non-delivered outcomes go through the stream, where the monitor counts them. A failure creates the
// streak hash here, before the next attempt can start, so the delivered outcome that follows always finds it
// and records its reset, even when the monitor has not read the failure yet. (Workers from before this change
// do not create it: during a rolling upgrade, one of their failures that the monitor reads after a newer
// worker's success can count once too often for that hook.)

// KEYS: attempt, hook record. ARGV: event id, version of the caller's cached target ('' = none).
// Returns {state} or {'send', version, fields...} when the caller's copy of the hook is stale.
const BEGIN = new LuaScript(`
if redis.call('EXISTS', KEYS[2]) == 0 then return {'hook_deleted'} end
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then return {'maybe_sent'} end
if current == ARGV[1] .. ':done' then return {'already_recorded'} end
redis.call('SET', KEYS[1], ARGV[1])
local version = redis.call('HGET', KEYS[2], 'version') or ''
if version ~= '' and version == ARGV[2] then return {'send'} end
return {'send', redis.call('HGETALL', KEYS[2])}
`);

// KEYS: delivery log, attempt, hook record, streak, streak failures.
// ARGV: record JSON, log bound, event id, streak step ('delivered' | 'failure' | ''), attempt time ms, ttl ms.
// A hook deleted while its request was in flight gets no log back (its keys are gone and stay gone).
const FINISH = new LuaScript(`
if redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
redis.call('SET', KEYS[2], ARGV[3] .. ':done')
local streak, failures, at = KEYS[4], KEYS[5], tonumber(ARGV[5])
if ARGV[4] == 'delivered' then
  if redis.call('EXISTS', streak) == 1 then
${APPLY_DELIVERED_LUA}
  end
elseif ARGV[4] == 'failure' then
  if redis.call('HSETNX', streak, 'count', 0) == 1 then redis.call('PEXPIRE', streak, ARGV[6]) end
end
return 1
`);

// Decrypted targets of recently delivered hooks, by version: a busy hook's credentials are not decrypted,
// nor its record shipped, for every event.
const CACHE_MAX = 10_000;

export class RedisAttemptLedger implements AttemptLedger {
  private readonly targets = new Lru<string, HookTarget>(CACHE_MAX);

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly secretBox: SecretBox,
    private readonly logMax: number,
  ) {}

  async begin(hookId: string, eventId: string): Promise<AttemptStart> {
    const cached = this.targets.get(hookId);
    const [state, fields] = (await BEGIN.run(
      this.redis,
      [this.keys.hookAttempt(hookId), this.keys.hookRecord(hookId)],
      [eventId, cached ? String(cached.version) : ''],
    )) as [string, string[] | undefined];
    if (state !== 'send') return { kind: state as Exclude<AttemptStart['kind'], 'send'> };
    const target = fields ? this.remember(hookId, fields) : cached;
    // The record exists (checked in the script) but does not parse: treat it as gone rather than guess.
    return target ? { kind: 'send', target } : { kind: 'hook_deleted' };
  }

  async finish(hookId: string, record: DeliveryRecord): Promise<void> {
    const { keys } = this;
    await FINISH.run(
      this.redis,
      [
        keys.hookDeliveries(hookId),
        keys.hookAttempt(hookId),
        keys.hookRecord(hookId),
        keys.hookStreak(hookId),
        keys.hookStreakFailures(hookId),
      ],
      [
        JSON.stringify(record),
        this.logMax,
        record.event_id,
        streakStep(record.outcome) ?? '',
        Date.parse(record.attempted_at),
        STREAK_IDLE_TTL_MS,
      ],
    );
  }

  private remember(hookId: string, flat: readonly string[]): HookTarget | undefined {
    const raw: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) raw[flat[i]!] = flat[i + 1]!;
    const hook = parseStoredHook(hookId, raw);
    this.targets.delete(hookId);
    if (!hook) return undefined;
    const target = toHookTarget(hook, this.secretBox);
    this.targets.set(hookId, target);
    return target;
  }
}
