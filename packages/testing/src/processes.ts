import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '../../..');

export interface SpawnedProcess {
  readonly child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when a line containing `text` has been printed. */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Runs one of hookline's real TypeScript entry points (e.g. apps/hookline/src/worker-main.ts) as a separate process,
 * straight from source, so tests exercise the production wiring, signals and crashes included.
 */
export function spawnEntry(
  entry: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): SpawnedProcess {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', entry, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const l of [...listeners]) l();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  return {
    child,
    output: () => text,
    waitForOutput(needle: string, timeoutMs = 20000) {
      return new Promise<void>((ok, fail) => {
        const check = () => {
          if (!text.includes(needle)) return;
          listeners.delete(check);
          clearTimeout(timer);
          ok();
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          fail(new Error(`${entry} did not print "${needle}" within ${timeoutMs} ms; it printed:\n${text}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then(() => {
          if (!text.includes(needle)) {
            listeners.delete(check);
            clearTimeout(timer);
            fail(new Error(`${entry} exited before printing "${needle}":\n${text}`));
          }
        });
        check();
      });
    },
    exited,
    kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}
