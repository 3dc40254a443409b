import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { redisAnswers, startEmbeddedRedis } from '@hookline/redis';

// The fallback `pnpm start` uses when no Redis answers: a private redis-server with AOF under .data.
describe('embedded Redis', () => {
  it('starts a persistent redis-server that keeps data across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-redis-'));
    try {
      const first = await startEmbeddedRedis(dataDir);
      const client = new IORedis(first.url);
      await client.set('hookline:probe', 'kept');
      await client.quit();
      await first.stop();
      expect(await redisAnswers(first.url, 300)).toBe(false);
      expect(readdirSync(join(dataDir, 'redis')).length).toBeGreaterThan(0);

      const second = await startEmbeddedRedis(dataDir);
      const again = new IORedis(second.url);
      expect(await again.get('hookline:probe')).toBe('kept');
      await again.quit();
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30000);

  it('stops the server a killed start left running before it starts another on the same files', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-redis-'));
    try {
      // A start killed with SIGKILL never stops its redis-server: the child outlives it.
      const left = await startEmbeddedRedis(dataDir);
      const client = new IORedis(left.url);
      await client.set('hookline:probe', 'written before the kill');
      await client.quit();

      const next = await startEmbeddedRedis(dataDir);
      // The one left was stopped (it wrote its AOF out first), not left writing the same files.
      expect(await redisAnswers(left.url, 300)).toBe(false);
      const again = new IORedis(next.url);
      expect(await again.get('hookline:probe')).toBe('written before the kill');
      await again.quit();
      await next.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30000);

  // What a person reads when it cannot start (at start, or when pnpm start gives up starting it again).
  describe('names why it does not start', () => {
    let dataDir = '';
    beforeEach(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'hookline-redis-'));
    });
    afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

    it('a port another process holds', async () => {
      // Holds the port, and hangs up on whoever calls.
      const holder = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const { port } = holder.address() as { port: number };
      try {
        await expect(startEmbeddedRedis(dataDir, port)).rejects.toThrow(
          `the embedded redis-server did not start on port ${port}: port ${port} is taken by another process; ` +
            `free it, then start hookline again (redis-server: "Failed listening on port ${port} (TCP), aborting.")`,
        );
      } finally {
        await new Promise((resolve) => holder.close(resolve));
      }
    }, 30000);

    it('a damaged AOF, and how to repair it', async () => {
      const first = await startEmbeddedRedis(dataDir);
      await first.stop();
      const aof = join(dataDir, 'redis', 'appendonlydir');
      appendFileSync(join(aof, 'appendonly.aof.1.incr.aof'), 'this is not a command\r\n');
      await expect(startEmbeddedRedis(dataDir, first.port)).rejects.toThrow(
        `the embedded redis-server did not start on port ${first.port}: its AOF in ${aof} is damaged; keep a copy ` +
          `of that directory, then repair it with redis-check-aof --fix ${join(aof, 'appendonly.aof.manifest')} ` +
          '(redis-server: "Bad file format reading the append only file appendonly.aof.1.incr.aof',
      );
    }, 30000);

    it('a data directory it cannot write in', async () => {
      // Where its AOF directory goes, a file: as good as a read-only directory, and one even root cannot write.
      mkdirSync(join(dataDir, 'redis'));
      writeFileSync(join(dataDir, 'redis', 'appendonlydir'), '');
      await expect(startEmbeddedRedis(dataDir)).rejects.toThrow(
        `it cannot write its files in ${join(dataDir, 'redis')}; make that a writable directory with space left ` +
          `(redis-server: "Can't open or create append-only dir appendonlydir: Not a directory")`,
      );
    }, 30000);
  });

  it('tells a closed port from a Redis', async () => {
    expect(await redisAnswers('redis://127.0.0.1:1', 300)).toBe(false);
    expect(await redisAnswers(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379')).toBe(true);
  });

  // Something else on 127.0.0.1:6379 that takes the connection and says nothing: pnpm start would wait for ever.
  it('tells a listener that never answers from a Redis', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      expect(await redisAnswers(`redis://127.0.0.1:${port}`, 300)).toBe(false);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 10000);
});
