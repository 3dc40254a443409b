import type { Logger } from 'pino';

/**
 * The shutdown path every hookline process shares: on SIGTERM or SIGINT, run `stop` once (it finishes the
 * work in hand), then exit 0; a failing stop exits 1 with the reason logged.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing the work in hand');
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** ioredis repeats the same error on every reconnect attempt: log one line per change, and the recovery. */
export function logRedisErrors(
  redis: {
    on(event: 'error', cb: (error: Error) => void): unknown;
    on(event: 'ready', cb: () => void): unknown;
  },
  logger: Logger,
): void {
  let last = '';
  redis.on('error', (error: Error) => {
    if (error.message !== last) logger.warn({ err: error }, 'redis connection error');
    last = error.message;
  });
  redis.on('ready', () => {
    if (last) logger.info('redis connection restored');
    last = '';
  });
}
