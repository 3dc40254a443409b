import { HooklineError, Lru, newId, validationError, type Clock } from '@hookline/core';
import { type RedisKeys } from '@hookline/redis';
import type { Redis } from 'ioredis';
import { normaliseEmail, passwordProblem, validateAccountInput } from './account-input';
import type { RedisActivityFeed } from './activity-feed';
import { execOrThrow } from './capped-list';
import type { AccountView, Accounts, CreateAccountInput } from './contracts';
import { isIdOf } from './id-guard';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPasswordHash } from './passwords';

/** Well-formed, so reading it costs a real lookup, and never issued: newId draws 20 random hex digits. */
const NO_ACCOUNT_ID = 'acct_00000000000000000000';

// An account never goes away once its id has been given out (only a losing create, whose id nobody saw, is
// taken back), and what its view shows never changes (only the password does, which the view leaves out).
// So views read are remembered, and the lookup every account-scoped API call starts with (every published
// event) costs no round trip. Briefly: a record lost with Redis's data is not served for long.
const REMEMBERED_ACCOUNTS = 10_000;
const REMEMBER_MS = 60_000;

/** Accounts in Redis: a hash per account, and one hash from lowercased email to account id. */
export class RedisAccounts implements Accounts {
  /** accountId -> its view, and when (performance.now()) it was read. */
  private readonly known = new Lru<string, { view: AccountView; readAt: number }>(REMEMBERED_ACCOUNTS);

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly activity: RedisActivityFeed,
    private readonly clock: Clock,
  ) {}

  async create(input: CreateAccountInput): Promise<AccountView> {
    const valid = validateAccountInput(input);
    const id = newId('acct');
    const record: Record<string, string> = { id, name: valid.name, created_at: this.clock().toISOString() };
    if (valid.email !== undefined) record.email = valid.email;
    if (valid.password !== undefined) record.password_hash = await hashPassword(valid.password);
    // The record first, then the email: the email index is a global key (another shard of a Redis Cluster),
    // so the two cannot be one step. Whoever claims the email first wins; a loser takes its record back. A
    // crash in between leaves a record that no email and no answer lead to.
    await this.redis.hset(this.keys.accountRecord(id), record);
    if (valid.email !== undefined) {
      const claimed = await this.redis
        .hsetnx(this.keys.accountByEmail(), valid.email, id)
        .catch(async (error: unknown) => {
          await this.redis.del(this.keys.accountRecord(id)).catch(() => undefined);
          throw error;
        });
      if (claimed === 0) {
        await this.redis.del(this.keys.accountRecord(id));
        throw new HooklineError('CONFLICT', 'An account with this email already exists');
      }
    }
    return toView(record);
  }

  async get(accountId: string): Promise<AccountView | undefined> {
    const now = performance.now();
    const known = this.known.get(accountId);
    if (known && now - known.readAt < REMEMBER_MS) return known.view;
    const record = await this.read(accountId);
    if (!record) return undefined;
    const view = Object.freeze(toView(record));
    this.known.set(accountId, { view, readAt: now });
    return view;
  }

  async idByEmail(email: string): Promise<string | undefined> {
    const normalised = normaliseEmail(email);
    return (await this.redis.hget(this.keys.accountByEmail(), normalised)) ?? undefined;
  }

  async verifyPassword(email: string, password: string): Promise<AccountView | undefined> {
    const normalised = typeof email === 'string' ? normaliseEmail(email) : '';
    const accountId = normalised ? await this.redis.hget(this.keys.accountByEmail(), normalised) : null;
    // The same round trips and the same scrypt work whether or not the email has an account (or the
    // account a password): the answer's timing must not tell which emails are registered.
    const record = await this.read(accountId ?? NO_ACCOUNT_ID);
    const known = accountId !== null && record?.password_hash ? record : undefined;
    const matches = await verifyPasswordHash(
      typeof password === 'string' ? password : '',
      known?.password_hash ?? DUMMY_PASSWORD_HASH,
    );
    return matches && known ? toView(known) : undefined;
  }

  async changePassword(accountId: string, currentPassword: string, newPassword: string): Promise<boolean> {
    const problem = passwordProblem(newPassword);
    if (problem) throw validationError([{ field: 'new_password', message: problem }]);
    const record = await this.read(accountId);
    const matches = await verifyPasswordHash(
      typeof currentPassword === 'string' ? currentPassword : '',
      record?.password_hash ?? DUMMY_PASSWORD_HASH,
    );
    if (!record?.password_hash || !matches) return false;
    const tx = this.redis
      .multi()
      .hset(this.keys.accountRecord(accountId), 'password_hash', await hashPassword(newPassword));
    this.activity.appendInto(tx, accountId, {
      kind: 'account.password_changed',
      at: this.clock().toISOString(),
      actor: `customer:${accountId}`,
    });
    await execOrThrow(tx);
    return true;
  }

  async hasPassword(accountId: string): Promise<boolean> {
    if (!isIdOf('acct', accountId)) return false;
    return (await this.redis.hexists(this.keys.accountRecord(accountId), 'password_hash')) === 1;
  }

  private async read(accountId: string): Promise<Record<string, string> | undefined> {
    if (!isIdOf('acct', accountId)) return undefined;
    const record = await this.redis.hgetall(this.keys.accountRecord(accountId));
    return record.id === accountId ? record : undefined;
  }
}

// Built field by field so that the password hash can never ride along into an answer.
function toView(record: Record<string, string>): AccountView {
  return {
    id: record.id ?? '',
    name: record.name ?? '',
    ...(record.email ? { email: record.email } : {}),
    created_at: record.created_at ?? '',
  };
}
