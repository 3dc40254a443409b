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
  return destination ? pino(options, destination) : pino(options);
}
