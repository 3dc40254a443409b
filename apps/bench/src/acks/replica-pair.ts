import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { sleep } from '../clock';
import { freePort } from '../system/http-tier';

/**
 * A primary and one replica of the acks phase's own, as redis-server processes on free loopback ports (what
 * `HOOKLINE_REDIS_REPLICA_ACKS` needs: `WAIT` answers only when a replica is attached). Without persistence:
 * the phase measures replication round trips, not disk writes. Returned once the replica is in sync.
 */
export class ReplicaPair {
  private constructor(
    private readonly children: readonly ChildProcess[],
    private readonly dir: string,
    readonly primaryPort: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.primaryPort}`;
  }

  static async start(): Promise<ReplicaPair> {
    const dir = mkdtempSync(join(tmpdir(), 'hookline-bench-acks-'));
    // A port released can be handed out again at once: the replica's must differ from the primary's.
    const primaryPort = await freePort();
    let replicaPort = await freePort();
    while (replicaPort === primaryPort) replicaPort = await freePort();
    const server = (port: number, extra: string[]) =>
      spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--dbfilename', `dump-${port}.rdb`]
          .concat(['--save', '', '--appendonly', 'no'])
          .concat(extra),
        { stdio: 'ignore' },
      );
    const children = [
      server(primaryPort, []),
      server(replicaPort, ['--replicaof', '127.0.0.1', String(primaryPort)]),
    ];
    const pair = new ReplicaPair(children, dir, primaryPort);
    const replica = new IORedis({
      port: replicaPort,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: null,
    });
    replica.on('error', () => undefined);
    try {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const info = await replica.info('replication').catch(() => '');
        if (/master_link_status:up/.test(info)) break;
        if (Date.now() > deadline || children.some((c) => c.exitCode !== null)) {
          await pair.stop();
          throw new Error('the primary and replica of the acks phase did not start');
        }
        await sleep(100);
      }
    } finally {
      replica.disconnect();
    }
    return pair;
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
