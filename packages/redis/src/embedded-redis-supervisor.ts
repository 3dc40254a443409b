import { EmbeddedRedisDidNotStart } from './embedded-redis-cause';
import { startEmbeddedRedis, type EmbeddedRedis, type EmbeddedRedisExit } from './redis-server';

/**
 * How the embedded redis-server is started again after it dies: one table, read by the code below.
 * A crash loop backs off to one start every `maxDelayMs`; a server that then stays up is trusted again.
 */
export const EMBEDDED_REDIS_RESTARTS = {
  /** The wait before the first start after a death; doubled at each death or failed start. */
  firstDelayMs: 500,
  maxDelayMs: 10_000,
  /** A server that ran this long has recovered: the next death waits `firstDelayMs` again. */
  steadyAfterMs: 60_000,
  /** Starts that fail one after another before giving up (port taken, data directory, AOF: none mends itself). */
  failedStartsBeforeGivingUp: 5,
} as const;

/** JSON log lines, as the process logger writes them. */
export interface SupervisorLog {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface EmbeddedRedisSupervisor {
  /** Stops the server for good: no start after this, and one starting now is stopped once it is up. */
  stop(): Promise<void>;
}

/**
 * Keeps `first` (started by startEmbeddedRedis) running: when it dies, however, it is started again on the same
 * port and data directory, so every client's address stays right and ioredis reconnects by itself, and the AOF
 * brings back what was accepted. Each death and start is logged. When `failedStartsBeforeGivingUp` starts in a
 * row fail, `onGiveUp` gets the reason redis-server gave (the caller ends the process).
 */
export function superviseEmbeddedRedis(
  first: EmbeddedRedis,
  options: {
    readonly dataDir: string;
    readonly log: SupervisorLog;
    readonly onGiveUp: (error: Error) => void;
  },
): EmbeddedRedisSupervisor {
  const { dataDir, log, onGiveUp } = options;
  const timings = EMBEDDED_REDIS_RESTARTS;
  const { port } = first;
  let current: EmbeddedRedis | undefined;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let starting: Promise<void> | undefined;
  let delayMs: number = timings.firstDelayMs;
  let failedStarts = 0;
  let upSince = 0;

  const startLater = () => {
    const wait = delayMs;
    delayMs = Math.min(delayMs * 2, timings.maxDelayMs);
    log.warn({ port, inMs: wait }, 'starting the embedded redis-server again');
    timer = setTimeout(() => {
      timer = undefined;
      starting = startAgain().finally(() => (starting = undefined));
    }, wait);
  };

  const onDeath = (server: EmbeddedRedis, exit: EmbeddedRedisExit) => {
    if (stopping) return;
    current = undefined;
    const ranMs = Date.now() - upSince;
    if (ranMs >= timings.steadyAfterMs) delayMs = timings.firstDelayMs;
    log.error(
      {
        port,
        serverPid: server.pid,
        code: exit.code,
        signal: exit.signal,
        ranMs,
        said: exit.lastLines.slice(-3),
      },
      'the embedded redis-server stopped',
    );
    startLater();
  };

  const follow = (server: EmbeddedRedis) => {
    current = server;
    upSince = Date.now();
    void server.exited.then((exit) => onDeath(server, exit));
  };

  async function startAgain(): Promise<void> {
    let server: EmbeddedRedis;
    try {
      server = await startEmbeddedRedis(dataDir, port);
    } catch (error) {
      if (stopping) return;
      failedStarts += 1;
      const why =
        error instanceof EmbeddedRedisDidNotStart
          ? error.why
          : error instanceof Error
            ? error.message
            : String(error);
      const givingUp = failedStarts >= timings.failedStartsBeforeGivingUp;
      log.error(
        { port, failedStarts, why },
        `the embedded redis-server did not start again${givingUp ? '; giving up' : ''}`,
      );
      if (!givingUp) return startLater();
      return onGiveUp(
        new Error(
          `The embedded redis-server (port ${port}, AOF in ${first.dir}) stopped and did not start again ` +
            `${failedStarts} times in a row: ${why}`,
        ),
      );
    }
    if (stopping) return server.stop();
    failedStarts = 0;
    log.warn({ port, serverPid: server.pid }, 'the embedded redis-server runs again');
    follow(server);
  }

  follow(first);
  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await starting;
      await current?.stop();
    },
  };
}
