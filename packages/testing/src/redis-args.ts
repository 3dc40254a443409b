/**
 * redis-server's arguments for a server a test or a test run starts for itself: on `port` of the loopback
 * interface alone, in the foreground, keeping nothing on disk (its data lives as long as the process).
 */
export const ephemeralRedisArgs = (port: number): string[] => [
  ...['--port', String(port), '--bind', '127.0.0.1', '--daemonize', 'no'],
  ...['--save', '', '--appendonly', 'no'],
];
