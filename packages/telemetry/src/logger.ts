import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

// Credentials and the operator key never reach a log line, whatever object is logged.
const REDACT = [
  'auth.token',
  'auth.password',
  '*.auth.token',
  '*.auth.password',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'password',
  'token',
];

/** JSON lines to stdout, or to `destination` (tests read what an operator would see). */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    name,
    redact: { paths: REDACT, censor: '[redacted]' },
    base: { pid: process.pid },
  };
  return pino(options, destination ?? stdout());
}

/**
 * Standard output as pino's default destination (written asynchronously), with `minLength: 1` so that
 * `logger.flush(cb)` waits until the lines are written or the write failed: with pino's default (0) it answers at
 * once, and a process stopping with its reader gone (`… | head`) could exit only through pino's exit-time
 * flush, which retries a broken pipe every 100 ms for ever (sonic-boom 4). A line is still written as soon as
 * no other write is in progress.
 */
function stdout(): DestinationStream {
  return pino.destination({ dest: process.stdout.fd ?? 1, minLength: 1, sync: false });
}
