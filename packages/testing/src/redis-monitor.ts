import type { Redis } from 'ioredis';

/** A MONITOR connection a test reads commands from; `stop` closes it. */
export interface CommandWatch {
  stop(): void;
}

/**
 * Every command Redis runs, as its arguments (the command's name as sent), to `onCommand` until stopped:
 * for tests that count what a process sends, as Redis sees it.
 *
 * Not ioredis's `monitor()`: it rejects on the connection's first error, and a MONITOR line of another
 * client (another suite on the same Redis) can arrive in the same packet as MONITOR's own OK, before ioredis
 * counts the connection as monitoring, which it reports as "Command queue state error". That line is from
 * before the caller's commands, so it is ignored here, with every error of this connection: a test that
 * misses lines because the connection failed fails on what it counted.
 */
export async function watchCommands(
  redis: Redis,
  onCommand: (args: string[]) => void,
): Promise<CommandWatch> {
  const connection = redis.duplicate({ monitor: true });
  connection.on('error', () => undefined);
  connection.on('monitor', (_time: string, args: string[]) => onCommand(args));
  await new Promise<void>((resolve) => connection.once('monitoring', () => resolve()));
  return { stop: () => connection.disconnect() };
}
