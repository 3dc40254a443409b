import type { Redis } from 'ioredis';
import { LuaScript, type DeliverableEvent, type RedisKeys } from '@hookline/core';

// Accepting an event is one script in the account's slot: the idempotency key, the snapshot of the account's
// hooks and the inbox entry are written together, so an event is either accepted (and then reaches every hook
// of the snapshot) or not at all. The fan-out to the hooks' queues, which live in other slots of a Redis
// Cluster, follows; the entry is deleted once every hook's queue has the event. An entry still there after a
// grace period was left by a process that died mid-fan-out: the next publish for the account, or the
// monitor's recovery pass, repeats its fan-out (adding to a queue is idempotent per event id).
//
// Ages are measured with the Redis server's clock (TIME), the one that stamps stream ids, so producers on
// machines with skewed clocks agree on what is abandoned.

const NOW_MS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS: inbox, account hooks set, idempotency key (only for an event with an id).
// ARGV: event id, event JSON, accepted at (ms), idempotency TTL (s), grace (ms), most abandoned entries to
// return, hook ids as a JSON array ('' = the account's hooks now).
const ACCEPT = new LuaScript(`
${NOW_MS}
local inbox, hooksKey, idemKey = KEYS[1], KEYS[2], KEYS[3]
local abandoned = redis.call('XRANGE', inbox, '-', string.format('%d', now - tonumber(ARGV[5])),
  'COUNT', tonumber(ARGV[6]))
if idemKey then
  local earlier = redis.call('GET', idemKey)
  if earlier then
    local entry = string.match(earlier, '"entry":"([0-9-]+)"')
    local pending = {}
    if entry then pending = redis.call('XRANGE', inbox, entry, entry) end
    return {'duplicate', earlier, pending, abandoned}
  end
end
local hooks
if ARGV[7] ~= '' then
  hooks = cjson.decode(ARGV[7])
else
  hooks = redis.call('SMEMBERS', hooksKey)
  table.sort(hooks)
end
local hooksJson = '[]'
local entry = ''
if #hooks > 0 then
  hooksJson = '["' .. table.concat(hooks, '","') .. '"]'
  entry = redis.call('XADD', inbox, '*', 'event', ARGV[2], 'hooks', hooksJson, 'at', ARGV[3])
end
local answer = '{"id":"' .. ARGV[1] .. '","hooks":' .. hooksJson .. ',"entry":"' .. entry .. '"}'
if idemKey then redis.call('SET', idemKey, answer, 'EX', tonumber(ARGV[4])) end
local own = {}
if entry ~= '' then own = redis.call('XRANGE', inbox, entry, entry) end
return {'accepted', answer, own, abandoned}
`);

// KEYS: index. ARGV: account id. The score only grows, so recovery can tell a quiet account from a busy one.
const MARK = new LuaScript(`
${NOW_MS}
redis.call('ZADD', KEYS[1], 'GT', now, ARGV[1])
`);

// KEYS: index. ARGV: grace (ms), most accounts.
const QUIET = `
${NOW_MS}
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('%d', now - tonumber(ARGV[1])),
  'LIMIT', 0, tonumber(ARGV[2]))
`;

// Drops an account from the index unless it accepted an event within the grace period: a publish racing
// this call has marked the account (fresh score) before writing its entry, so it stays indexed.
// KEYS: index. ARGV: account id, grace (ms).
const FORGET = `
${NOW_MS}
local score = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '-1')
if score >= 0 and score <= now - tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
`;

// KEYS: inbox. ARGV: grace (ms), most entries.
const OLDER_THAN = `
${NOW_MS}
return redis.call('XRANGE', KEYS[1], '-', string.format('%d', now - tonumber(ARGV[1])), 'COUNT', tonumber(ARGV[2]))
`;

export interface InboxEntry {
  /** The stream entry id. */
  readonly id: string;
  readonly event: DeliverableEvent;
  /** The account's hooks when the event was accepted: the ones it goes to. */
  readonly hooks: readonly string[];
  readonly acceptedAt: number;
}

export interface AcceptedAnswer {
  readonly id: string;
  readonly hooks: string[];
}

export type Acceptance =
  | {
      readonly kind: 'accepted';
      readonly answer: AcceptedAnswer;
      /** Absent when the account has no hooks: there is nothing to fan out. */
      readonly entry?: InboxEntry;
      readonly abandoned: InboxEntry[];
    }
  | {
      readonly kind: 'duplicate';
      /** Undefined when the earlier answer cannot be read (it is being written by an older version). */
      readonly answer?: AcceptedAnswer;
      /** The earlier acceptance's entry when its fan-out is not complete yet. */
      readonly pending?: InboxEntry;
      readonly abandoned: InboxEntry[];
    };

export interface AcceptInput {
  readonly accountId: string;
  readonly event: DeliverableEvent;
  readonly acceptedAt: number;
  readonly idempotencyKey?: string;
  readonly idempotencyTtlSeconds: number;
  /** The hooks to deliver to; the account's current hooks when absent. */
  readonly hooks?: readonly string[];
  readonly graceMs: number;
  readonly maxAbandoned: number;
}

type RawEntry = [string, string[]];

export class AccountInbox {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Indexes the account for recovery; must happen before its entry is written. */
  async markActive(accountId: string): Promise<void> {
    await MARK.run(this.redis, [this.keys.inboxAccounts()], [accountId]);
  }

  async accept(input: AcceptInput): Promise<Acceptance> {
    const { keys } = this;
    const idemKey = input.idempotencyKey
      ? [keys.accountIdempotency(input.accountId, input.idempotencyKey)]
      : [];
    const reply = (await ACCEPT.run(
      this.redis,
      [keys.accountInbox(input.accountId), keys.accountHooks(input.accountId), ...idemKey],
      [
        input.event.id,
        JSON.stringify(input.event),
        input.acceptedAt,
        input.idempotencyTtlSeconds,
        input.graceMs,
        input.maxAbandoned,
        input.hooks ? JSON.stringify(input.hooks) : '',
      ],
    )) as [string, string, RawEntry[], RawEntry[]];
    const [kind, answerJson, own, abandoned] = reply;
    const answer = parseAnswer(answerJson);
    const entry = own[0] && toEntry(own[0]);
    if (kind === 'accepted' && answer)
      return { kind, answer, ...(entry ? { entry } : {}), abandoned: abandoned.map(toEntry) };
    return {
      kind: 'duplicate',
      ...(answer ? { answer } : {}),
      ...(entry ? { pending: entry } : {}),
      abandoned: abandoned.map(toEntry),
    };
  }

  /** The entry's fan-out is complete. */
  async done(accountId: string, entryId: string): Promise<void> {
    await this.redis.xdel(this.keys.accountInbox(accountId), entryId);
  }

  /** Accounts that accepted nothing within the grace period (and may have abandoned entries). */
  async quietAccounts(graceMs: number, limit: number): Promise<string[]> {
    return (await this.redis.eval(QUIET, 1, this.keys.inboxAccounts(), graceMs, limit)) as string[];
  }

  /** The account's entries older than the grace period, oldest first. */
  async olderThan(accountId: string, graceMs: number, limit: number): Promise<InboxEntry[]> {
    const raw = (await this.redis.eval(
      OLDER_THAN,
      1,
      this.keys.accountInbox(accountId),
      graceMs,
      limit,
    )) as RawEntry[];
    return raw.map(toEntry);
  }

  async isEmpty(accountId: string): Promise<boolean> {
    return (await this.redis.xlen(this.keys.accountInbox(accountId))) === 0;
  }

  async forget(accountId: string, graceMs: number): Promise<void> {
    await this.redis.eval(FORGET, 1, this.keys.inboxAccounts(), accountId, graceMs);
  }
}

function parseAnswer(json: string): AcceptedAnswer | undefined {
  try {
    const parsed = JSON.parse(json) as Partial<AcceptedAnswer>;
    return typeof parsed.id === 'string' && Array.isArray(parsed.hooks)
      ? { id: parsed.id, hooks: parsed.hooks }
      : undefined;
  } catch {
    return undefined;
  }
}

function toEntry([id, fields]: RawEntry): InboxEntry {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i]!, fields[i + 1]!);
  return {
    id,
    event: JSON.parse(map.get('event') ?? '{}') as DeliverableEvent,
    hooks: JSON.parse(map.get('hooks') ?? '[]') as string[],
    acceptedAt: Number(map.get('at') ?? 0),
  };
}
