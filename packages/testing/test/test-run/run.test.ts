import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TEST_DATABASE_URL, TEST_REDIS_URL, waitUntil } from '../../src';
import { removeLeftovers } from '../../src/test-run/leftovers';
import { onPath } from '../../src/test-run/preflight';
import { probePostgres, probeRedis } from '../../src/test-run/probes';
import { freePort } from '../../src/test-run/server-process';
import { RUN_DIR_PREFIX } from '../../src/test-run/services';

const REPO_ROOT = resolve(__dirname, '../../../..');
const MAIN = join(REPO_ROOT, 'packages/testing/src/test-run/main.ts');
const HOLD_RUN = join(__dirname, 'hold-run.ts');

interface Run {
  readonly pid: number;
  output(): string;
  readonly exited: Promise<number | null>;
}

function start(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  through: 'node' | 'a shell' = 'node',
): Run {
  const command = [process.execPath, '--require', 'tsx/cjs', script, ...args];
  // `; true` keeps the shell from exec'ing node: it stays node's parent, as pnpm's shell does.
  const [program, ...programArgs] =
    through === 'node' ? command : ['sh', '-c', `${command.map((a) => `'${a}'`).join(' ')}; true`];
  // Its own process group, as a terminal gives the command it runs: a Ctrl-C goes to the whole group.
  const child = spawn(program as string, programArgs, {
    cwd: REPO_ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  return { pid: child.pid as number, output: () => text, exited };
}

/** The run folder of the runner with this pid (runner.pid inside names it). */
function runDirOf(pid: number): string | undefined {
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith(RUN_DIR_PREFIX))
    .map((name) => join(tmpdir(), name))
    .find((dir) => {
      try {
        return readFileSync(join(dir, 'runner.pid'), 'utf8').trim() === String(pid);
      } catch {
        return false;
      }
    });
}

/**
 * A run against ports where nothing answers, held in its step: the throwaway servers' URLs, the step's child
 * (the runner's grandchild) and the run's folder.
 */
async function heldRun(mode: 'hold' | 'fail' = 'hold', through: 'node' | 'a shell' = 'node') {
  const wanted = [
    `redis://127.0.0.1:${await freePort()}`,
    `postgres://postgres@127.0.0.1:${await freePort()}/test`,
  ];
  const run = start(HOLD_RUN, [mode, ...wanted], process.env, through);
  await waitUntil(() => run.output().includes('URLS '), "the step's URLs", 30_000);
  const line = run
    .output()
    .split('\n')
    .find((l) => l.startsWith('URLS ')) as string;
  const [redisUrl, databaseUrl, stepChild] = JSON.parse(line.slice('URLS '.length)) as [
    string,
    string,
    number,
  ];
  // Through a shell the runner is the step child's grandparent; a failing step's child may be gone already.
  const runner = through === 'node' ? run.pid : parentOf(parentOf(stepChild));
  return { run, redisUrl, databaseUrl, stepChild, runner, dir: runDirOf(runner) };
}

/** The parent pid of a process (field 4 of /proc/<pid>/stat; no process names here contain spaces). */
function parentOf(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[3]);
}

/** Running, that is: neither gone nor a zombie waiting for whoever adopted it to reap it. */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] !== 'Z';
  } catch {
    return false;
  }
}

async function expectNothingLeft(
  redisUrl: string,
  databaseUrl: string,
  run: { runner: number; dir: string | undefined; stepChild: number },
) {
  expect(alive(run.stepChild)).toBe(false);
  expect(runDirOf(run.runner)).toBeUndefined();
  expect(await probeRedis(redisUrl)).toEqual({ kind: 'absent' });
  expect(await probePostgres(databaseUrl)).toEqual({ kind: 'absent' });
  if (run.dir) expect(existsSync(run.dir)).toBe(false);
}

describe('pnpm test (the runner)', () => {
  it('stops at once, naming redis-server and its package, when redis-server is not on PATH', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'hookline-path-'));
    try {
      for (const name of ['promtool', 'tinyproxy'])
        symlinkSync(onPath(name, process.env.PATH ?? '') as string, join(bin, name));
      const run = start(MAIN, [], { PATH: bin, TEST_REDIS_URL, TEST_DATABASE_URL, HOME: tmpdir() });
      expect(await run.exited).toBe(1);
      expect(run.output()).toMatch(/^ {2}missing redis-server \(.*\): apt-get install redis-server$/m);
      expect(run.output()).toContain('sudo apt-get install -y redis-server\n');
      // Nothing else was started: no typecheck, no servers.
      expect(run.output()).not.toMatch(/typecheck|throwaway/);
      expect(runDirOf(run.pid)).toBeUndefined();
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }, 30_000);

  it('gives the steps a throwaway Redis and PostgreSQL, and stops them on Ctrl-C', async () => {
    const held = await heldRun();
    const { run, redisUrl, databaseUrl, dir } = held;
    expect(await probeRedis(redisUrl)).toEqual({ kind: 'usable' });
    expect(await probePostgres(databaseUrl)).toEqual({ kind: 'usable' });
    expect(dir && existsSync(join(dir, 'postgres', 'PG_VERSION'))).toBe(true);
    process.kill(-run.pid, 'SIGINT');
    expect(await run.exited).toBe(130);
    await expectNothingLeft(redisUrl, databaseUrl, held);
  }, 60_000);

  it('stops them on a SIGTERM sent to the runner alone, and its step with them', async () => {
    const held = await heldRun();
    const { run, redisUrl, databaseUrl } = held;
    process.kill(run.pid, 'SIGTERM');
    expect(await run.exited).toBe(143);
    expect(run.output()).toContain('test run: SIGTERM, stopping the suite and any server the run started');
    await expectNothingLeft(redisUrl, databaseUrl, held);
  }, 60_000);

  it('stops them when a step fails, and exits with its code', async () => {
    const held = await heldRun('fail');
    const { run, redisUrl, databaseUrl } = held;
    expect(await run.exited).toBe(3);
    expect(run.output()).toContain('test run: fail failed (exit code 3)');
    await expectNothingLeft(redisUrl, databaseUrl, held);
  }, 60_000);

  it('stops everything when the command that started it is gone (pnpm killed alone)', async () => {
    const held = await heldRun('hold', 'a shell');
    const { run, redisUrl, databaseUrl, dir } = held;
    expect(dir && existsSync(dir)).toBe(true);
    // What pnpm does on SIGTERM: its shell goes, the runner is left with a new parent.
    process.kill(run.pid, 'SIGKILL');
    await waitUntil(() => dir && !existsSync(dir), 'the run folder deleted', 30_000);
    await expectNothingLeft(redisUrl, databaseUrl, held);
  }, 60_000);

  it('stops what a killed run left the next time, and keeps the folders of runs still going', async () => {
    const killed = await heldRun();
    const going = await heldRun();
    // SIGKILL leaves the runner no chance to stop its servers, which live in process groups of their own;
    // its step has one too (steps.ts), killed here as well.
    process.kill(-parentOf(killed.stepChild), 'SIGKILL');
    process.kill(-killed.run.pid, 'SIGKILL');
    await killed.run.exited;
    expect(await probeRedis(killed.redisUrl)).toEqual({ kind: 'usable' });
    expect(removeLeftovers(tmpdir(), RUN_DIR_PREFIX)).toContain(killed.dir);
    // SIGKILL is sent, not waited for: the ports close when the kernel has ended the processes.
    await waitUntil(async () => (await probeRedis(killed.redisUrl)).kind === 'absent', 'the Redis gone');
    await waitUntil(
      async () => (await probePostgres(killed.databaseUrl)).kind === 'absent',
      'PostgreSQL gone',
    );
    expect(await probeRedis(killed.redisUrl)).toEqual({ kind: 'absent' });
    expect(existsSync(killed.dir as string)).toBe(false);
    expect(await probeRedis(going.redisUrl)).toEqual({ kind: 'usable' });
    process.kill(-going.run.pid, 'SIGINT');
    expect(await going.run.exited).toBe(130);
    await expectNothingLeft(going.redisUrl, going.databaseUrl, going);
  }, 90_000);
});
