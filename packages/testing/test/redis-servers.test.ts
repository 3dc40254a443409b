import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '../src/ports';
import { RedisServerProcess, ServerExited } from '../src/redis-servers';

const serverOn = (port: number, dir: string) =>
  new RedisServerProcess(
    port,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    undefined,
    join(dir, `redis-${port}-${Math.random().toString(36).slice(2)}.log`),
  );

describe('the Redis server fixtures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-servers-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hand out distinct ports, each free to listen on', async () => {
    const ports = await freePorts(64);
    expect(new Set(ports).size).toBe(64);
    for (const port of ports.slice(0, 8))
      await new Promise<void>((resolve, reject) => {
        const server = createServer();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
      });
  });

  it('do not take another server answering on the port for the one they started', async () => {
    const [port] = await freePorts(1);
    const first = serverOn(port!, dir);
    const second = serverOn(port!, dir);
    await first.start();
    try {
      await expect(second.start()).rejects.toBeInstanceOf(ServerExited);
      expect(second.running).toBe(false);
      expect(await first.call((r) => r.ping())).toBe('PONG');
    } finally {
      await Promise.all([first.kill(), second.kill()]);
    }
  });
});
