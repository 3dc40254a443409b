import type { ChildProcess } from 'node:child_process';
import { constants, tmpdir } from 'node:os';
import { removeLeftovers } from './leftovers';
import { describeMissing, preflight } from './preflight';
import {
  probeServices,
  RUN_DIR_PREFIX,
  startServices,
  type RunServices,
  type WantedServices,
} from './services';
import { runSteps, signalStep, type Step } from './steps';

export interface TestRunOptions {
  readonly steps: readonly Step[];
  readonly wanted: WantedServices;
  /** Where the preflight looks for programs (see preflight.ts). */
  readonly PATH: string;
  readonly postgresRoots: readonly string[];
  readonly chromium: string;
  /** The environment the steps run with; the services' URLs are added to it. */
  readonly env: NodeJS.ProcessEnv;
  readonly print: (line: string) => void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** How long a stopped step gets to end by itself before it is killed. */
const STEP_GRACE_MS = 10_000;
const PARENT_CHECK_MS = 500;

/**
 * `pnpm test`: the preflight, the services (a running Redis and PostgreSQL when they answer, throwaway ones
 * otherwise), the steps with the services' URLs in their environment, and the services stopped again —
 * after a pass, a failure, a crash of the runner's own code, or a signal. Returns the exit code.
 *
 * The order matters: the preflight comes before anything is started, so a missing program costs seconds and
 * leaves nothing; the probes come before the preflight because a PostgreSQL that answers needs no server
 * programs on this machine.
 */
export async function testRun(options: TestRunOptions): Promise<number> {
  const { print } = options;
  let signal: NodeJS.Signals | undefined;
  let current: readonly ChildProcess[] = [];
  const stopRun = (received: NodeJS.Signals, why: string) => {
    if (!signal) print(`test run: ${why}, stopping the suite and any server the run started`);
    signal ??= received;
    // The steps lead process groups of their own (steps.ts): a terminal's Ctrl-C reaches them only this way.
    const running = current;
    for (const child of running) signalStep(child, received);
    setTimeout(() => {
      for (const child of running)
        if (child.exitCode === null && child.signalCode === null) signalStep(child, 'SIGKILL');
    }, STEP_GRACE_MS).unref();
  };
  const onSignal = (received: NodeJS.Signals) => stopRun(received, received);
  for (const name of SIGNALS) process.on(name, onSignal);
  // pnpm, stopped with a signal of its own, ends the shell it runs this in and exits, leaving this runner
  // to carry on alone: a new parent means whoever started the run is gone.
  const parent = process.ppid;
  const watchParent = setInterval(() => {
    if (process.ppid !== parent) stopRun('SIGTERM', 'the command that started this run is gone');
  }, PARENT_CHECK_MS).unref();
  let services: RunServices | undefined;
  try {
    for (const dir of removeLeftovers(tmpdir(), RUN_DIR_PREFIX))
      print(`test run: stopped the servers of a killed run and removed ${dir}`);
    const probe = await probeServices(options.wanted);
    const programs = preflight({
      PATH: options.PATH,
      postgresRoots: options.postgresRoots,
      chromium: options.chromium,
      needPostgresServer: probe.postgres.kind !== 'usable',
    });
    if (!programs.ok) {
      print(describeMissing(programs.missing));
      return 1;
    }
    services = await startServices({
      wanted: options.wanted,
      probe,
      redisServer: programs.found.redisServer,
      postgresBin: programs.found.postgresBin,
      interrupted: () => signal !== undefined,
    });
    for (const line of services.report) print(`test run: ${line}`);
    const outcome = await runSteps(
      options.steps,
      { ...options.env, ...services.env },
      { interruptedBy: () => signal, current: (children) => (current = children) },
    );
    if (outcome.kind === 'failed') print(`test run: ${outcome.step} failed (exit code ${outcome.code})`);
    if (outcome.kind === 'failed') return outcome.code;
    if (outcome.kind === 'interrupted') return 128 + constants.signals[outcome.signal];
    return signal ? 128 + constants.signals[signal] : 0;
  } catch (error) {
    // A Ctrl-C during initdb ends initdb too (same terminal): the run was stopped, it did not break.
    if (signal) return 128 + constants.signals[signal];
    throw error;
  } finally {
    if (services?.dir) print('test run: stopping the throwaway servers');
    await services?.stop();
    for (const name of SIGNALS) process.off(name, onSignal);
    clearInterval(watchParent);
  }
}
