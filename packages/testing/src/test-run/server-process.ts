import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A server program the run started; stopped (and its process group with it) when the run ends. */
export interface ServerProcess {
  readonly pid: number;
  readonly child: ChildProcess;
  /** True once the program has exited, for whatever reason. */
  exited(): boolean;
  /** Asks it to stop with `signal`, waits for it, and kills its whole process group if it lingers. */
  stop(signal: NodeJS.Signals, graceMs?: number): Promise<void>;
  /** The end of its log, for an error message when it did not come up. */
  logTail(): string;
}

export interface ServerSpawn {
  readonly program: string;
  readonly args: readonly string[];
  /** stdout and stderr go here, not to the terminal: the suite's output stays the suite's. */
  readonly logFile: string;
  /** Run as this user (PostgreSQL refuses to run as root). */
  readonly user?: { readonly uid: number; readonly gid: number };
}

/** A port nobody listens on right now (the kernel's pick). Another process may take it before we do. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server program in its own process group: a Ctrl-C in the terminal reaches the runner and the
 * suite, not the servers, so the runner stops them after the suite has let go of them, in its own order.
 */
export function spawnServer(options: ServerSpawn): ServerProcess {
  const log = openSync(options.logFile, 'a');
  const child = spawn(options.program, [...options.args], {
    detached: true,
    stdio: ['ignore', log, log],
    ...(options.user ?? {}),
  });
  closeSync(log);
  let done = child.exitCode !== null;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      done = true;
      resolve();
    });
    child.once('error', () => {
      done = true;
      resolve();
    });
  });
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  return {
    pid: child.pid ?? -1,
    child,
    exited: () => done,
    async stop(signal, graceMs = 15_000) {
      if (!done) child.kill(signal);
      const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref());
      if ((await Promise.race([exited, timer])) === 'late') child.kill('SIGKILL');
      await exited;
      // Anything the program forked (PostgreSQL's backends) dies with the group.
      killGroup('SIGKILL');
    },
    logTail() {
      try {
        return readFileSync(options.logFile, 'utf8').split('\n').slice(-15).join('\n');
      } catch {
        return '';
      }
    },
  };
}

/** Polls `ready` until it says yes, the server exits, or the time is up. */
export async function waitUntilReady(
  server: ServerProcess,
  ready: () => Promise<boolean>,
  timeoutMs: number,
): Promise<'ready' | 'exited' | 'timed_out'> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ready()) return 'ready';
    if (server.exited()) return 'exited';
    if (Date.now() > deadline) return 'timed_out';
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
