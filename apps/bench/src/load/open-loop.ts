import { nowMicros } from '../clock';

export interface OpenLoopRun {
  /** Resolves with the number of events fired once the loop has stopped. */
  readonly done: Promise<number>;
  stop(): void;
}

/**
 * Fires `rate` events per second until stopped, each stamped with the time it was due rather than the time
 * the loop got round to it: a stalled loop then shows up as latency instead of hiding it (no coordinated
 * omission).
 */
export function runOpenLoop(rate: number, fire: (seq: number, dueAtMicros: number) => void): OpenLoopRun {
  const start = nowMicros();
  const stepMicros = 1e6 / rate;
  let sent = 0;
  let finish: (sent: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (finish = resolve));
  const timer = setInterval(() => {
    const due = Math.floor((nowMicros() - start) / stepMicros);
    while (sent < due) {
      fire(sent, start + sent * stepMicros);
      sent += 1;
    }
  }, 1);
  return {
    done,
    stop() {
      clearInterval(timer);
      finish(sent);
    },
  };
}
