import { spawn, type ChildProcess } from 'node:child_process';

/** One command of the run (typecheck, lint, layers, jest), run in the terminal with the run's environment. */
export interface Command {
  readonly name: string;
  readonly program: string;
  readonly args: readonly string[];
}

/**
 * A step: one command, or several run side by side (`together`), which pass when every one of them passes.
 * The first to fail stops the others (there is no point finishing them) and names the step's failure.
 */
export type Step = Command | { readonly name: string; readonly together: readonly Command[] };

export type StepsOutcome =
  | { readonly kind: 'passed' }
  | { readonly kind: 'failed'; readonly step: string; readonly code: number }
  | { readonly kind: 'interrupted'; readonly signal: NodeJS.Signals };

/**
 * Runs the steps one after the other, stopping at the first that fails, as `a && b && c` would. `current`
 * lets the signal handler reach the commands that are running; a step the run was interrupted in ends the run.
 *
 * Each command leads a process group of its own, so that stopping it reaches everything it started: `pnpm run`
 * passes a signal to its shell but not to the shell's child (tsc went on alone), and jest has workers.
 */
export async function runSteps(
  steps: readonly Step[],
  env: NodeJS.ProcessEnv,
  control: {
    interruptedBy(): NodeJS.Signals | undefined;
    current(children: readonly ChildProcess[]): void;
  },
): Promise<StepsOutcome> {
  for (const step of steps) {
    const before = control.interruptedBy();
    if (before) return { kind: 'interrupted', signal: before };
    const commands = 'together' in step ? step.together : [step];
    const children = commands.map((command) =>
      spawn(command.program, [...command.args], { stdio: 'inherit', env, detached: true }),
    );
    control.current(children);
    let failed: { step: string; code: number } | undefined;
    await Promise.all(
      children.map(async (child, i) => {
        const code = await exitCodeOf(child, commands[i]!);
        if (code === 0 || failed) return;
        failed = { step: commands[i]!.name, code };
        for (const other of children) if (other.exitCode === null) signalStep(other, 'SIGTERM');
      }),
    );
    control.current([]);
    const during = control.interruptedBy();
    if (during) return { kind: 'interrupted', signal: during };
    if (failed) return { kind: 'failed', ...failed };
  }
  return { kind: 'passed' };
}

function exitCodeOf(child: ChildProcess, command: Command): Promise<number> {
  return new Promise<number>((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`${command.name}: could not run ${command.program}: ${error.message}\n`);
      resolve(127);
    });
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
  });
}

/** Sends a signal to a step and everything it started; quiet when they are gone already. */
export function signalStep(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}
