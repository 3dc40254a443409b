import { singleFlight } from './single-flight';

/**
 * One timer per period for the whole process. Every loop that looks at Redis each second (a monitor has half a
 * dozen: its tick, the watchdog, the erasures, the history and audit writers at rest) joins the same beat, so
 * an idle process wakes once a second for all of them instead of once per loop at scattered moments: their
 * commands are issued in one turn and leave in one write (batchWritesPerTurn), and their replies come back
 * together. Each loop keeps its period; only the moments line up.
 */
interface Beat {
  readonly timer: NodeJS.Timeout;
  readonly tasks: Set<() => void>;
}

const beats = new Map<number, Beat>();

/** Runs `task` on every beat of `periodMs` until the returned function is called. */
export function joinBeat(periodMs: number, task: () => void): () => void {
  let beat = beats.get(periodMs);
  if (!beat) {
    const tasks = new Set<() => void>();
    const timer = setInterval(() => {
      for (const run of [...tasks]) run();
    }, periodMs);
    beat = { timer, tasks };
    beats.set(periodMs, beat);
  }
  // A task joined twice runs twice: each join is its own.
  const own = () => task();
  const joined = beat;
  joined.tasks.add(own);
  return () => {
    joined.tasks.delete(own);
    if (joined.tasks.size === 0 && beats.get(periodMs) === joined) {
      clearInterval(joined.timer);
      beats.delete(periodMs);
    }
  };
}

/** Resolves on the next beat of `periodMs` (at most that long from now); `cancel` resolves it at once. */
export function nextBeat(periodMs: number): { readonly done: Promise<void>; cancel(): void } {
  let leave: (() => void) | undefined;
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const finish = () => {
    leave?.();
    leave = undefined;
    resolveDone();
  };
  leave = joinBeat(periodMs, finish);
  return { done, cancel: finish };
}

/** An async task on a beat (`runOnBeat`): `leave` stops the beats to come; `inFlight` is the run going now, if any. */
export interface BeatTask {
  leave(): void;
  inFlight(): Promise<void>;
}

/**
 * Runs an async `task` on every beat of `periodMs`. A run still going when the next beat comes is not stacked
 * up behind (that beat is skipped: Redis may be slow); a run that fails goes to `onError`, and the next beat
 * runs the task again.
 */
export function runOnBeat(
  periodMs: number,
  task: () => Promise<unknown>,
  onError: (error: unknown) => void,
): BeatTask {
  const runs = singleFlight(task, onError);
  const leave = joinBeat(periodMs, () => void runs.run());
  return { leave, inFlight: async () => runs.current };
}
