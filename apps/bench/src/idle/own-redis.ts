import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import type { Redis } from 'ioredis';
import { createRedis } from '@hookline/redis';
import { sleep } from '../clock';
import { freePort } from '../system/http-tier';

/**
 * A Redis server of the idle phase's own, on a free loopback port, without persistence: INFO commandstats then
 * counts hookline's commands only (a shared Redis serves other programs too), commands run inside scripts
 * included. Stopped (and its data gone) at the end.
 */
export class OwnRedis {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly redis: Redis,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid!;
  }

  static async start(): Promise<OwnRedis> {
    const port = await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    while (!(await accepts(port))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('redis-server did not start');
      await sleep(100);
    }
    return new OwnRedis(child, port, createRedis(`redis://127.0.0.1:${port}`));
  }

  async stop(): Promise<void> {
    this.redis.disconnect();
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
