import { Lru, type AttemptRecord } from '@hookline/core';
import {
  hookQueueLayout,
  OUTBOX_IDLE_TTL_MS,
  SCRIPTS,
  STREAK_IDLE_TTL_MS,
  type RedisKeys,
} from '@hookline/redis';
import type { Redis } from 'ioredis';
import type {
  AttemptFence,
  AttemptFinish,
  AttemptLedger,
  AttemptStart,
  HookTarget,
  StreakStep,
} from './contracts';
import { parseStoredHook, toHookTarget } from './hook-record';
import type { SecretBox } from './secret-box';

// A job whose holder died or froze is taken over by another process. For a webhook, running it again is the
// one thing we must not do blindly: the request may already have reached the endpoint. Before sending, the
// worker writes the event id to the hook's attempt key; recording the outcome appends `:done` in the same
// script that appends the attempt's record to the hook's history outbox (the history writer moves it to
// PostgreSQL; the caller marks the hook for it). Both steps first check the caller's lock token on the job (the fence:
// a holder that lost the job writes nothing). A takeover reads the key:
//   - another event's id (or nothing): this event was never attempted -> send it;
//   - this event's id: it may have left -> record `unknown`, do not send;
//   - this event's id + ':done': the outcome is recorded, only the job's completion was lost -> finish quietly.
//
// Each step is one script in the hook's slot (record, outbox, attempt and streak keys share the `{hk_…}` tag),
// so a delivery costs two round trips of hookline's own besides BullMQ's: one before the request, one after.
//
// The finish script also moves the hook's failure streak (the rules are in packages/suspension) for a delivered outcome, so a
// healthy delivery writes nothing to the global outcome stream and costs the suspension monitor nothing:
// only non-delivered outcomes go through the stream, where the monitor counts them. A failure creates the
// streak hash here, before the next attempt can start, so the delivered outcome that follows always finds it
// and records its reset, even when the monitor has not read the failure yet. (Workers from before this change
// do not create it: during a rolling upgrade, one of their failures that the monitor reads after a newer
// worker's success can count once too often for that hook.)

const FINISHED: Record<string, AttemptFinish> = {
  '1': 'recorded',
  '0': 'hook_deleted',
  '-1': 'fenced',
  '-2': 'not_this_attempt',
};

// Decrypted targets of recently delivered hooks, by version: a busy hook's credentials are not decrypted,
// nor its record shipped, for every event.
const CACHE_MAX = 10_000;

export class RedisAttemptLedger implements AttemptLedger {
  private readonly targets = new Lru<string, HookTarget>(CACHE_MAX);

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly secretBox: SecretBox,
  ) {}

  async begin(hookId: string, eventId: string, fence: AttemptFence): Promise<AttemptStart> {
    const cached = this.targets.get(hookId);
    const [state, lockMsLeft, fields] = (await SCRIPTS.attemptBegin.run(
      this.redis,
      [this.keys.hookAttempt(hookId), this.keys.hookRecord(hookId), this.lockKey(hookId, fence)],
      [eventId, cached ? String(cached.version) : '', fence.token],
    )) as [string, number, string[] | undefined];
    if (state !== 'send') return { kind: state as Exclude<AttemptStart['kind'], 'send'> };
    const target = fields ? this.remember(hookId, fields) : cached;
    // The record exists (checked in the script) but does not parse: treat it as gone rather than guess.
    return target ? { kind: 'send', target, lockMsLeft } : { kind: 'hook_deleted' };
  }

  async release(hookId: string, marker: string, fence: AttemptFence): Promise<'released' | 'fenced'> {
    const result = await SCRIPTS.attemptRelease.run(
      this.redis,
      [this.keys.hookAttempt(hookId), this.lockKey(hookId, fence)],
      [marker, fence.token],
    );
    return Number(result) === 1 ? 'released' : 'fenced';
  }

  async finish(
    hookId: string,
    record: AttemptRecord,
    fence: AttemptFence,
    streakStep?: StreakStep,
    marker: string = record.event_id,
  ): Promise<AttemptFinish> {
    const { keys } = this;
    const result = await SCRIPTS.attemptFinish.run(
      this.redis,
      [
        keys.hookHistoryOutbox(hookId),
        keys.hookAttempt(hookId),
        keys.hookRecord(hookId),
        keys.hookStreak(hookId),
        keys.hookStreakFailures(hookId),
        this.lockKey(hookId, fence),
      ],
      [
        JSON.stringify(record),
        OUTBOX_IDLE_TTL_MS,
        marker,
        streakStep ?? '',
        Date.parse(record.attempted_at),
        STREAK_IDLE_TTL_MS,
        fence.token,
      ],
    );
    return FINISHED[String(result)] ?? 'recorded';
  }

  private lockKey(hookId: string, fence: AttemptFence): string {
    return hookQueueLayout(this.keys, hookId).jobLock(fence.jobId);
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
