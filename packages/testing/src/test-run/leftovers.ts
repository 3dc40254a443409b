import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a run killed outright (SIGKILL, a closed terminal, a crash) left behind: its folder under the temporary
 * directory, and the servers started in it, still running. The next run stops those servers and deletes the
 * folder. A folder whose runner is alive belongs to a run in progress and is left alone.
 */

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The program a pid runs now (a pid can be reused: only our own kind of server is stopped). */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
  } catch {
    return '';
  }
}

/** The pid files the run's servers write: redis-server's --pidfile and PostgreSQL's postmaster.pid. */
const SERVER_PID_FILES = [
  // redis-server rewrites its command line to "redis-server 127.0.0.1:<port>".
  { file: 'redis-server.pid', program: /(^|\/)redis-server( |$)/ },
  { file: join('postgres', 'postmaster.pid'), program: /(^|\/)postgres$/ },
] as const;

/** Stops the servers of dead runs and deletes their folders; returns the folders it removed. */
export function removeLeftovers(tmp: string, prefix: string): string[] {
  let names: string[];
  try {
    names = readdirSync(tmp).filter((name) => name.startsWith(prefix));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const dir = join(tmp, name);
    const runner = readPid(join(dir, 'runner.pid'));
    if (runner === undefined || alive(runner)) continue;
    for (const { file, program } of SERVER_PID_FILES) {
      const pid = readPid(join(dir, file));
      if (pid === undefined || !alive(pid) || !program.test(commandOf(pid))) continue;
      try {
        // The servers lead their own process groups: PostgreSQL's backends go with the postmaster.
        process.kill(-pid, 'SIGKILL');
      } catch {
        process.kill(pid, 'SIGKILL');
      }
    }
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}
