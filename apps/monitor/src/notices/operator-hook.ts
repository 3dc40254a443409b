import type { Redis } from 'ioredis';
import type { RedisKeys } from '@hookline/redis';
import type { Accounts, Hooks } from '@hookline/store';

export interface OperatorHookDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly accounts: Pick<Accounts, 'create'>;
  readonly hooks: Pick<Hooks, 'create' | 'get' | 'update' | 'remove' | 'setSigningSecret' | 'neverSuspend'>;
  /** HOOKLINE_OPERATOR_WEBHOOK_URL and _SECRET. */
  readonly url: string;
  readonly secret: string;
}

export interface OperatorHook {
  readonly accountId: string;
  readonly hookId: string;
}

const ACTOR = 'monitor';

/**
 * The operator's notices go through hookline's own pipeline: a hook of an internal account (no e-mail, no
 * password: nobody signs in to it) whose queue delivers them in order, one attempt each, signed with the
 * operator's secret. Made once for the deployment: monitors starting together race on SETNX of its ids, and
 * the loser removes what it made. At every start its URL and secret are set to the settings' values.
 */
export async function ensureOperatorHook(deps: OperatorHookDeps): Promise<OperatorHook> {
  const key = deps.keys.operatorHook();
  let known = parse(await deps.redis.get(key));
  if (!known || !(await deps.hooks.get(known.accountId, known.hookId))) {
    const account = await deps.accounts.create({ name: 'hookline operator notices' });
    const hook = await deps.hooks.create(
      account.id,
      { url: deps.url, format: 'json', auth: { scheme: 'none' }, description: 'Operator notices' },
      ACTOR,
    );
    const mine = { accountId: account.id, hookId: hook.id };
    const claimed = known
      ? (await deps.redis.set(key, `${mine.accountId} ${mine.hookId}`, 'XX')) === 'OK'
      : (await deps.redis.set(key, `${mine.accountId} ${mine.hookId}`, 'NX')) === 'OK';
    if (!claimed) await deps.hooks.remove(account.id, hook.id, ACTOR);
    known = claimed ? mine : parse(await deps.redis.get(key));
    if (!known) throw new Error('the operator notices hook could not be set up');
  }
  await deps.hooks.update(known.accountId, known.hookId, { url: deps.url }, ACTOR);
  await deps.hooks.setSigningSecret(known.accountId, known.hookId, deps.secret, ACTOR);
  // One attempt each, and nobody to re-enable it: a suspension would hold every later notice for good.
  await deps.hooks.neverSuspend(known.accountId, known.hookId);
  return known;
}

function parse(value: string | null): OperatorHook | undefined {
  const [accountId, hookId] = value?.split(' ') ?? [];
  return accountId && hookId ? { accountId, hookId } : undefined;
}
