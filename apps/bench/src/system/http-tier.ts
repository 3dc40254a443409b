import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { request } from 'undici';
import { sleep } from '../clock';
import { REPO_ROOT } from '../repo-root';
import { redisConnectionsOf, rssMb } from './proc';
import type { WorkerEntry } from './worker-entry';

// The HTTP tier as production runs it (apps/hookline's http-main: API, website, admin on one port), as a
// process of its own so that its CPU can be read from /proc like a worker's. Its output goes to a file: at
// LOG_LEVEL=info it logs two lines per request, and the bench reading them would count as the bench's CPU.

const live = new Set<HttpTier>();

/** For the bench's cleanup (also on Ctrl-C): stops any HTTP tier still running. */
export async function stopHttpTiers(): Promise<void> {
  await Promise.all([...live].map((tier) => tier.stop()));
}

/** A port free on 127.0.0.1 just now (the tier listens on it a moment later; nothing else here takes ports). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const tail = async (file: string) => (await readFile(file, 'utf8').catch(() => '')).slice(-4000);

export class HttpTier {
  private readonly exited: Promise<unknown>;

  private constructor(
    private readonly child: ChildProcess,
    readonly base: string,
    /** The operator key (`Authorization: Bearer …`), random for each run. */
    readonly apiKey: string,
    private readonly redisPort: number,
    readonly logFile: string,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', resolve));
    live.add(this);
    void this.exited.then(() => live.delete(this));
  }

  /**
   * Starts the tier on 127.0.0.1 and returns once `GET /readyz` answers 200 (Redis reachable), or throws with
   * the end of its output after `startWithinMs`, or as soon as it exits.
   */
  static async start(
    entry: WorkerEntry,
    env: Record<string, string>,
    redisPort: number,
    logFile: string,
    startWithinMs = 60_000,
    script = entry.httpScript,
  ): Promise<HttpTier> {
    const port = await freePort();
    const apiKey = randomBytes(24).toString('hex');
    const out = openSync(logFile, 'w');
    const child = spawn(process.execPath, [...entry.nodeArgs, script], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        ...env,
        HOOKLINE_API_KEY: apiKey,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    const tier = new HttpTier(child, `http://127.0.0.1:${port}`, apiKey, redisPort, logFile);
    const deadline = Date.now() + startWithinMs;
    while (!(await tier.ready())) {
      if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
        await tier.stop();
        throw new Error(`the HTTP tier did not start; it printed:\n${await tail(logFile)}`);
      }
      await sleep(100);
    }
    return tier;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Its Redis connections (from /proc, as for the workers) and resident memory. */
  async sample(): Promise<{ redisConnections: number; rssMb: number }> {
    return {
      redisConnections: (await redisConnectionsOf(this.pid, this.redisPort)).length,
      rssMb: await rssMb(this.pid).catch(() => 0),
    };
  }

  /** SIGTERM (it drains, then exits), then SIGKILL if it has not gone after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  private async ready(): Promise<boolean> {
    return request(`${this.base}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
      async (res) => {
        await res.body.dump();
        return res.statusCode === 200;
      },
      () => false,
    );
  }
}
