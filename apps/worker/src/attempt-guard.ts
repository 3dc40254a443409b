import type { Redis } from 'ioredis';
import { LuaScript, type RedisKeys } from '@hookline/core';

// BullMQ runs a job again when the process holding it died (stalled job). For a webhook that is the one
// thing we must not do blindly: the request may already have reached the endpoint. Before sending, the
// worker writes the event id to the hook's attempt key; after recording the outcome it appends `:done`.
// A re-run reads the key:
//   - another event's id (or nothing): this event was never attempted -> send it;
//   - this event's id: it may have left -> record `unknown`, do not send;
//   - this event's id + ':done': the outcome is recorded, only the job's completion was lost -> finish quietly.
export type AttemptStart = 'send' | 'maybe_sent' | 'already_recorded';

const BEGIN = new LuaScript(`
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then return 'maybe_sent' end
if current == ARGV[1] .. ':done' then return 'already_recorded' end
redis.call('SET', KEYS[1], ARGV[1])
return 'send'
`);

export class AttemptGuard {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async begin(hookId: string, eventId: string): Promise<AttemptStart> {
    return (await BEGIN.run(this.redis, [this.keys.hookAttempt(hookId)], [eventId])) as AttemptStart;
  }

  async finish(hookId: string, eventId: string): Promise<void> {
    await this.redis.set(this.keys.hookAttempt(hookId), `${eventId}:done`);
  }
}
