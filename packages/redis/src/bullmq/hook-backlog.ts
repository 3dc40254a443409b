/** A hook queue's backlog, as the watchdog and the fleet figures read it (hook-backlog.lua). */
export interface HookBacklog {
  /** Events waiting to be delivered, or held while the hook is suspended (paused). */
  readonly waiting: number;
  /** Jobs active: the attempt in flight, or one whose holder is gone and is waiting to be taken over. */
  readonly active: number;
  readonly paused: boolean;
  /** When the oldest waiting event was added to the queue (ms since the epoch); absent when none waits. */
  readonly oldestWaitingAt?: number;
}

/**
 * Whether the hook needs a worker: events it may take now, or a job in progress (its holder may be gone). The
 * same rule as hook-needs-worker.lua, which the worker runs before it lets a hook go.
 */
export function needsWorker(backlog: HookBacklog): boolean {
  return backlog.active > 0 || (!backlog.paused && backlog.waiting > 0);
}

/** Events a worker may deliver now: held events of a suspended hook wait for a person, not for a worker. */
export function deliverable(backlog: HookBacklog): number {
  return backlog.paused ? 0 : backlog.waiting;
}

export function parseBacklog(reply: unknown): HookBacklog {
  const [waiting, active, paused, oldest] = (reply as unknown[]).map(Number);
  return {
    waiting: waiting ?? 0,
    active: active ?? 0,
    paused: paused === 1,
    ...(oldest ? { oldestWaitingAt: oldest } : {}),
  };
}
