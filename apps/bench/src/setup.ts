import { randomBytes } from 'node:crypto';
import { redisKeys, type RedisKeys } from '@hookline/redis';
import { createRedis, HookQueues } from '@hookline/redis';
import { Producer } from '@hookline/queue';
import { createStore, SecretBox, type Store } from '@hookline/store';
import type { Redis } from 'ioredis';
import type { BenchHook } from './load/hookline-load';
import type { Receivers } from './receivers/receivers';

/** hookline's own store and producer on a prefix of the bench's own, as an operator's tooling would use them. */
export interface BenchWorld {
  readonly prefix: string;
  readonly keys: RedisKeys;
  readonly secretKeyHex: string;
  /** For setup and probes; the producer has a connection of its own so probes never queue behind load. */
  readonly redis: Redis;
  readonly producerRedis: Redis;
  readonly store: Store;
  readonly producer: Producer;
}

export function createWorld(redisUrl: string): BenchWorld {
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const keys = redisKeys(prefix);
  const secretKey = randomBytes(32);
  const redis = createRedis(redisUrl);
  const producerRedis = createRedis(redisUrl);
  const store = createStore({
    redis,
    keys,
    secretBox: SecretBox.fromKey(secretKey),
    hookQueues: new HookQueues(redis, keys),
  });
  const producer = new Producer({ redis: producerRedis, keys, erasureTags: store.erasureTags });
  return { prefix, keys, secretKeyHex: secretKey.toString('hex'), redis, producerRedis, store, producer };
}

async function forEachLimited(
  count: number,
  limit: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, count) }, async () => {
    while (next < count) await task(next++);
  });
  await Promise.all(lanes);
}

/**
 * `count` accounts with one hook each, hook i posting to receiver path /h/i, for i from `firstIndex` on (the
 * quiet hooks come after the busy ones).
 */
export async function createActiveHooks(
  world: BenchWorld,
  receivers: Receivers,
  count: number,
  concurrency: number,
  { firstIndex = 0, kind = 'active' }: { firstIndex?: number; kind?: string } = {},
): Promise<BenchHook[]> {
  const hooks: BenchHook[] = [];
  await forEachLimited(count, concurrency, async (i) => {
    const index = firstIndex + i;
    const account = await world.store.accounts.create({ name: `bench ${kind} ${index}` });
    const hook = await world.store.hooks.create(
      account.id,
      { url: receivers.url(index), format: 'json', auth: { scheme: 'none' } },
      'bench',
    );
    hooks[i] = { index, accountId: account.id, hookId: hook.id };
  });
  return hooks;
}

/** Hooks that are configured but never get an event, through the same store call the API uses. */
export async function createIdleHooks(
  world: BenchWorld,
  receivers: Receivers,
  count: number,
  perAccount: number,
  concurrency: number,
): Promise<{ created: number; perSecond: number }> {
  const accounts: string[] = [];
  for (let a = 0; a < Math.ceil(count / perAccount); a++)
    accounts.push((await world.store.accounts.create({ name: `bench idle ${a}` })).id);
  const started = Date.now();
  await forEachLimited(count, concurrency, async (i) => {
    await world.store.hooks.create(
      accounts[Math.floor(i / perAccount)]!,
      { url: receivers.idleUrl(i), format: 'json', auth: { scheme: 'none' } },
      'bench',
    );
  });
  return { created: count, perSecond: Math.round(count / ((Date.now() - started) / 1000)) };
}
