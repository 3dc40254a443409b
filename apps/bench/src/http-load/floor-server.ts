import Fastify from 'fastify';
import { Redis } from 'ioredis';

// The floor under the HTTP tier's CPU per accepted event: the same requests answered by Fastify with none of
// hookline's work — no catalogue check, no idempotency, no fan-out, one Redis round trip (an XADD of the body
// to a capped stream, the least a service that keeps what it accepted can do) — logging as the tier does at
// its level (pino; no access lines below debug, see apps/api's request-log.ts). Measured beside the tier at
// the same rate (publish-load.ts `--entry floor=…`, the bench's HTTP rows), it says how much of the tier's
// figure is Node, Fastify, pino and the socket work of one command, which hookline cannot remove.
//
// It reads the environment the load tools give the tier (PORT, HOST, REDIS_URL, HOOKLINE_QUEUE_PREFIX,
// HOOKLINE_API_KEY, LOG_LEVEL) and answers the calls they make: readiness, accounts and hooks (with made-up
// ids, nothing stored), events.

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`floor-server: ${name} is required`);
  return value;
};

const apiKey = env('HOOKLINE_API_KEY');
const prefix = env('HOOKLINE_QUEUE_PREFIX');
const redis = new Redis(env('REDIS_URL', 'redis://127.0.0.1:6379'), { maxRetriesPerRequest: 1 });
const level = env('LOG_LEVEL', 'info');
const app = Fastify({ logger: { level }, disableRequestLogging: level !== 'debug' && level !== 'trace' });
let accounts = 0;

app.addHook('onRequest', async (request, reply) => {
  if (request.url === '/readyz') return;
  if (request.headers.authorization !== `Bearer ${apiKey}`) await reply.code(401).send();
});
app.get('/readyz', async () => ({ status: (await redis.ping()) === 'PONG' ? 'ready' : 'not ready' }));
app.post('/v1/accounts', async (_request, reply) => reply.code(201).send({ id: `acct_floor${++accounts}` }));
app.post('/v1/accounts/:acct/hooks', async (_request, reply) => reply.code(201).send({ id: 'hk_floor' }));
app.post<{ Params: { acct: string } }>('/v1/accounts/:acct/events', async (request, reply) => {
  const id = await redis.xadd(
    `${prefix}:floor:${request.params.acct}`,
    'MAXLEN',
    '~',
    '1000',
    '*',
    'event',
    JSON.stringify(request.body),
  );
  return reply.code(202).send({ id, hooks: [] });
});

// Its keys are under the prefix the load tool removes when it stops the child.
async function stop(): Promise<void> {
  await app.close();
  redis.disconnect();
}
process.once('SIGTERM', () => void stop().finally(() => process.exit(0)));
process.once('SIGINT', () => void stop().finally(() => process.exit(0)));

void app.listen({ port: Number(env('PORT')), host: env('HOST', '127.0.0.1') }).catch((error: unknown) => {
  app.log.error({ err: error }, 'floor-server: cannot listen');
  process.exit(1);
});
