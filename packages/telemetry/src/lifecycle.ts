import type { Logger } from 'pino';

/**
 * The shutdown path every hookline process shares: on SIGTERM or SIGINT, run `stop` once (it finishes the
 * work in hand), then exit 0; a failing stop exits 1 with the reason logged. A stop still running after
 * `boundMs` (a closing client waiting for a Redis that is down, say) is abandoned: the process exits 1, so an
 * orchestrator's stop never waits on it for ever.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>, boundMs = 30_000): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing the work in hand');
    setTimeout(() => {
      logger.error({ boundMs }, 'stopping did not finish in time; exiting');
      exitFlushed(logger, 1);
    }, boundMs).unref();
    stop().then(
      () => {
        logger.info('stopped');
        exitFlushed(logger, 0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'stopping failed');
        exitFlushed(logger, 1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/**
 * Exits once the log lines still buffered are written. Written here, while the event loop runs, a stdout whose
 * reader has gone (`… | head`) fails with EPIPE and pino stops writing; left to pino's own flush at exit, the
 * same EPIPE is retried every 100 ms for ever (sonic-boom 4), and the process never exits. A flush that does
 * not finish within a second (a reader that stopped reading) is left to that exit flush.
 */
function exitFlushed(logger: Logger, code: number): void {
  const exit = () => process.exit(code);
  setTimeout(exit, 1000);
  logger.flush(exit);
}

/** What `closeHttp` needs of a Fastify app, typed structurally so that telemetry does not depend on fastify. */
export interface ClosableHttpApp {
  close(): Promise<unknown>;
  readonly server: { closeAllConnections(): void };
}

/**
 * Closes an HTTP app within a bound: no new connections, requests in flight get up to `drainMs` to finish,
 * then every connection left is closed. Unbounded, a client that sent half a request (or a stuck handler)
 * holds `close()` past an orchestrator's grace (Kubernetes: 30 s, then SIGKILL): headersTimeout and
 * requestTimeout (60 s / 300 s) are no help, Node stops checking them once the server is closing.
 */
export async function closeHttp(app: ClosableHttpApp, drainMs: number): Promise<void> {
  const timer = setTimeout(() => app.server.closeAllConnections(), drainMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}

/** Where a process looked for Redis, for its connection errors (redisWhere in @hookline/redis). */
export interface RedisPlace {
  readonly shown: string;
  explain(error: Error): string | undefined;
}

const places = new WeakMap<object, RedisPlace>();

/** What `logRedisErrors` writes with: a pino logger, Fastify's included. */
export interface RedisErrorLog {
  warn(fields: object, message: string): void;
  info(message: string): void;
}

/** Distinct errors remembered per outage: enough for a client's cycle of them, bounded for a long outage. */
const SEEN_MAX = 16;
// ioredis' retry delays grow, and its words carry them: the same error with a longer delay is not a new one.
const sameErrorAs = (message: string) => message.replace(/after \d+ms/g, 'after …ms');

/**
 * ioredis repeats the same errors on every reconnect attempt, in turn when several alternate (Sentinel naming a
 * primary that does not answer: that primary's `connect ECONNREFUSED`, then `All sentinels are unreachable`):
 * log each error once until the connection is restored, then the recovery. With `where` (the process's own
 * client), the line names the setting Redis was looked for at (`redis`) and what the error means for it when
 * the client's words do not say (`hint`).
 */
export function logRedisErrors<
  T extends {
    on(event: 'error', cb: (error: Error) => void): unknown;
    on(event: 'ready', cb: () => void): unknown;
  },
>(redis: T, logger: RedisErrorLog, where?: RedisPlace, message = 'redis connection error'): T {
  if (where) places.set(redis, where);
  const seen = new Set<string>();
  redis.on('error', (error: Error) => {
    const same = sameErrorAs(error.message);
    if (seen.has(same)) return;
    if (seen.size >= SEEN_MAX) seen.clear();
    seen.add(same);
    const hint = where?.explain(error);
    logger.warn({ err: error, ...(where ? { redis: where.shown } : {}), ...(hint ? { hint } : {}) }, message);
  });
  redis.on('ready', () => {
    if (seen.size > 0) logger.info(message.replace(/error$/, 'restored'));
    seen.clear();
  });
  return redis;
}

/**
 * A second connection like `redis` (a blocking reader's, the admin board's), its errors logged as those of
 * `redis` are: with where Redis was looked for and the hint, when `redis` was watched with them, so a Redis
 * that cannot be reached is never logged once with its place and again without. `message` names the
 * connection's user when its lines must say whose they are.
 */
export function watchedDuplicate<
  T extends {
    duplicate(): T;
    on(event: 'error', cb: (error: Error) => void): unknown;
    on(event: 'ready', cb: () => void): unknown;
  },
>(redis: T, logger: RedisErrorLog, message?: string): T {
  return logRedisErrors(redis.duplicate(), logger, places.get(redis), message);
}
