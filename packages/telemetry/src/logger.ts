import pino, { type Logger } from 'pino';

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

export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, redact: { paths: REDACT, censor: '[redacted]' }, base: { pid: process.pid } });
}
