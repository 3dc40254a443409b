import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { HookView } from '@hookline/core';
import type { HookQueues, RedisKeys } from '@hookline/redis';
import type { Store } from '@hookline/store';
import { createServices, type Services } from '@hookline/services';
import { openHistory } from '@hookline/history';
import {
  dropSchema,
  startReceiver,
  TEST_DATABASE_URL,
  uniqueSchema,
  useRedis,
  type Receiver,
} from '@hookline/testing';
import type { HookControl } from '@hookline/suspension';
import { Producer } from '@hookline/queue';
import { mountAdmin } from '../mount-admin';

// The admin area over real HTTP on 127.0.0.1 (fastify's inject() needs an ESM-only package jest cannot load on
// Node 20), with hookline's real services on a real Redis under a test-only prefix, and one hook ("CRM") whose
// endpoint is a recording receiver.

export const ADMIN = { user: 'ops', password: 'correct horse battery staple' };
export const AUTH = {
  authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}`,
};

export interface Answer {
  readonly statusCode: number;
  readonly headers: Headers;
  readonly body: string;
}

export function useAdmin() {
  const ctx = useRedis('bull-board');
  const a = {
    ctx,
    keys: undefined as unknown as RedisKeys,
    store: undefined as unknown as Store,
    hookQueues: undefined as unknown as HookQueues,
    control: undefined as unknown as HookControl,
    audit: undefined as unknown as Services['audit'],
    receiver: undefined as unknown as Receiver,
    hook: undefined as unknown as HookView,
    app: undefined as unknown as FastifyInstance,
    origin: '',

    /** `redis`: the connection the admin area is given (the test's own by default). */
    async mount(maxQueues?: number, redis: Redis = ctx.redis): Promise<FastifyInstance> {
      // Closing must not wait for the keep-alive sockets of the test's own fetch pool.
      a.app = Fastify({ forceCloseConnections: true });
      ctx.onCleanup(() => a.app.close());
      await mountAdmin(a.app, {
        redis,
        keys: a.keys,
        hooks: a.store.hooks,
        accounts: a.store.accounts,
        control: a.control,
        admin: ADMIN,
        audit: a.audit,
        ...(maxQueues ? { maxQueues } : {}),
      });
      a.origin = await a.app.listen({ port: 0, host: '127.0.0.1' });
      return a.app;
    },

    async call(
      method: string,
      path: string,
      headers: Record<string, string> = AUTH,
      body?: string,
    ): Promise<Answer> {
      const res = await fetch(`${a.origin}${path}`, { method, headers, ...(body ? { body } : {}) });
      return { statusCode: res.status, headers: res.headers, body: await res.text() };
    },

    queuePath: (hookId: string) =>
      `/admin/queues/api/queues/${encodeURIComponent(a.keys.hookQueueName(hookId))}`,

    async publish(...callIds: string[]): Promise<void> {
      const producer = ctx.closeLater(
        new Producer({ redis: ctx.redis, keys: a.keys, erasureTags: a.store.erasureTags }),
      );
      const data = {
        direction: 'outbound',
        from: 'jonas1',
        from_cnam: 'Jonas 1',
        to: '78791245',
        rate: '0.0',
      };
      for (const call_id of callIds)
        await producer.publish(a.hook.account_id, { type: 'call_created', data: { ...data, call_id } });
    },
  };

  beforeEach(async () => {
    const schema = uniqueSchema('admin');
    const history = await openHistory({ kind: 'server', url: TEST_DATABASE_URL, schema });
    ctx.onCleanup(async () => {
      await history.close();
      await dropSchema(schema);
    });
    const services = createServices({
      redis: ctx.redis,
      settings: {
        HOOKLINE_QUEUE_PREFIX: ctx.prefix,
        HOOKLINE_HOLD_MAX: 10_000,
      },
      secretKey: randomBytes(32),
      historyDb: history.client,
    });
    ctx.onCleanup(() => services.close());
    ({
      keys: a.keys,
      hookQueues: a.hookQueues,
      store: a.store,
      control: a.control,
      audit: a.audit,
    } = services);
    a.receiver = ctx.closeLater(await startReceiver());
    const account = await a.store.accounts.create({ name: 'Acme' });
    a.hook = await a.store.hooks.create(
      account.id,
      {
        url: a.receiver.url('/crm?token=secret-in-query'),
        format: 'json',
        auth: { scheme: 'none' },
        description: 'CRM',
      },
      'operator',
    );
  });
  return a;
}
