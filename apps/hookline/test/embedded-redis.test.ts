import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
