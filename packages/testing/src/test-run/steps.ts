import { spawn, type ChildProcess } from 'node:child_process';

/** One command of the run (typecheck, lint, layers, jest), run in the terminal with the run's environment. */
export interface Step {
  readonly name: string;
  readonly program: string;
  readonly args: readonly string[];
}

export type StepsOutcome =
  | { readonly kind: 'passed' }
  | { readonly kind: 'failed'; readonly step: string; readonly code: number }
  | { readonly kind: 'interrupted'; readonly signal: NodeJS.Signals };

/**
 * Runs the steps one after the other, stopping at the first that fails, as `a && b && c` would. `current`
 * lets the signal handler reach the step that is running; a step the run was interrupted in ends the run.
 *
 * Each step leads a process group of its own, so that stopping it reaches everything it started: `pnpm run`
 * passes a signal to its shell but not to the shell's child (tsc went on alone), and jest has workers.
 */
export async function runSteps(
  steps: readonly Step[],
  env: NodeJS.ProcessEnv,
  control: { interruptedBy(): NodeJS.Signals | undefined; current(child: ChildProcess | undefined): void },
): Promise<StepsOutcome> {
  for (const step of steps) {
    const before = control.interruptedBy();
    if (before) return { kind: 'interrupted', signal: before };
    const child = spawn(step.program, [...step.args], { stdio: 'inherit', env, detached: true });
    control.current(child);
    const code = await new Promise<number>((resolve) => {
      child.once('error', (error) => {
        process.stderr.write(`${step.name}: could not run ${step.program}: ${error.message}\n`);
        resolve(127);
      });
      child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
    });
    control.current(undefined);
    const during = control.interruptedBy();
    if (during) return { kind: 'interrupted', signal: during };
    if (code !== 0) return { kind: 'failed', step: step.name, code };
  }
  return { kind: 'passed' };
}

/** Sends a signal to a step and everything it started; quiet when they are gone already. */
export function signalStep(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}
