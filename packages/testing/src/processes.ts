import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
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
 * Set by `pnpm test`, which builds every package before its tests: an entry point then runs from its build,
 * as production runs it. A process started from its build takes a third of the CPU of one that compiles its
 * sources as it loads them (the all-in-one asked its version: 0.74 s against 2.3 s, 2026-11-30), and a run
 * starts hundreds. A jest run started by hand, whose sources may be newer than their build, runs them from
 * source.
 */
export const BUILT_ENTRIES_ENV = 'HOOKLINE_TEST_BUILT_ENTRIES';

function entryCommand(entry: string): string[] {
  const source = /^(apps|packages)\/([a-z-]+)\/src\/([a-z-]+)\.ts$/.exec(entry);
  if (process.env[BUILT_ENTRIES_ENV] === '1' && source) {
    const built = resolve(REPO_ROOT, source[1]!, source[2]!, 'dist', `${source[3]!}.js`);
    if (!existsSync(built)) throw new Error(`${entry} has no build at ${built}: run pnpm build`);
    return [built];
  }
  return ['--require', 'tsx/cjs', entry];
}

/**
 * Runs one of hookline's real TypeScript entry points (e.g. apps/hookline/src/worker-main.ts) as a separate process,
 * from its build under `pnpm test` and from source otherwise, so tests exercise the production wiring, signals
 * and crashes included.
 */
export function spawnEntry(
  entry: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): SpawnedProcess {
  const child = spawn(process.execPath, [...entryCommand(entry), ...args], {
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
