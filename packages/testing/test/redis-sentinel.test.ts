import { existsSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { startRedisSentinel } from '../src/redis-sentinel';
import { withServerLogs } from '../src/redis-servers';

// The Sentinel fixture's servers keep their files in memory where the machine has /dev/shm with room (1 GiB),
// and log to a file a failing test can print.
const freeBytes = (path: string) => {
  const space = statfsSync(path);
  return space.bavail * space.bsize;
};

describe('the Redis Sentinel fixture', () => {
  it('logs each server and sentinel to a file whose tail a test can print, kept in /dev/shm', async () => {
    const redis = await startRedisSentinel({ replicas: 1, sentinels: 1 });
    const logs = [...redis.servers, ...redis.sentinels].map((s) => s.logFile!);
    try {
      const [primary, replica] = redis.servers;
      expect(primary!.logTail()).toMatch(/Ready to accept connections/);
      expect(replica!.logTail()).toMatch(/MASTER <-> REPLICA sync: Finished with success/);
      expect(redis.sentinels[0]!.logTail()).toMatch(/\+monitor master mymaster/);
      expect(primary!.logTail(2).split('\n')).toHaveLength(2);
      // A wait that fails says what it waited for, the detail given and what the server logged.
      const failing = withServerLogs(
        [primary!],
        () => Promise.reject(new Error('timed out')),
        () => 'role:master',
      );
      await expect(failing).rejects.toThrow(
        new RegExp(`^timed out\\nrole:master\\n--- ${primary!.port}\\n[^]*Ready to accept connections`),
      );
      if (existsSync('/dev/shm') && freeBytes('/dev/shm') >= 2 ** 30)
        expect(dirname(logs[0]!)).toMatch(/^\/dev\/shm\/hookline-sentinel-/);
    } finally {
      await redis.stop();
    }
    expect(logs.filter((file) => existsSync(file))).toEqual([]);
  }, 60_000);
});
