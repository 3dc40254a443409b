import { HooklineError } from './errors';

/**
 * How long /readyz waits for each dependency, in every process (HTTP tier, worker, monitor): a server that
 * takes the connection and never answers (frozen, or in a failover) must not hang the probe, which an
 * orchestrator then reads as a failure of its own kind.
 */
export const READY_WITHIN_MS = 2000;

/** A dependency's answer to a readiness check: how fast, or why not. */
export type DependencyAnswer = { ok: true; ms: number } | { ok: false; reason: string };

/** One entry of a ready process's `checks` on /readyz. */
export interface ReadyCheck {
  readonly name: string;
  readonly status: 'ok';
  readonly detail: string;
}

export type Readiness =
  | { readonly ready: true; readonly checks: readonly ReadyCheck[] }
  /** The 503 /readyz answers, naming in its details each thing that is not ready and why. */
  | { readonly ready: false; readonly problem: HooklineError };

// Each dependency as /readyz names it: its check, its name in a sentence, the code when it does not answer.
// Redis comes first: without it nothing works, so its code is the one given when both fail.
const DEPENDENCIES = {
  redis: {
    shown: 'Redis',
    code: 'REDIS_UNAVAILABLE',
    answered: (ms: number) => `answered PING in ${ms} ms`,
  },
  postgres: {
    shown: 'PostgreSQL',
    code: 'HISTORY_UNAVAILABLE',
    answered: (ms: number) => `answered in ${ms} ms`,
  },
} as const;

/**
 * A process's readiness from its dependencies' answers: Redis always, PostgreSQL (the delivery history) for the
 * processes that use it. Ready lists a check per dependency; not ready names each that did not answer, and why
 * (`{field: "redis", message: "not connected (reconnecting)"}`).
 */
export function readinessOf(answers: {
  readonly redis: DependencyAnswer;
  readonly postgres?: DependencyAnswer;
}): Readiness {
  const asked = (Object.keys(DEPENDENCIES) as (keyof typeof DEPENDENCIES)[]).flatMap((name) => {
    const answer = answers[name];
    return answer ? [{ name, answer }] : [];
  });
  const failed = asked.flatMap(({ name, answer }) => (answer.ok ? [] : [{ name, message: answer.reason }]));
  if (failed.length > 0)
    return {
      ready: false,
      problem: new HooklineError(
        DEPENDENCIES[failed[0]!.name].code,
        `Not ready: ${failed.map((f) => DEPENDENCIES[f.name].shown).join(' and ')} ` +
          `${failed.length > 1 ? 'do' : 'does'} not answer`,
        failed.map(({ name, message }) => ({ field: name, message })),
      ),
    };
  return {
    ready: true,
    checks: asked.map(({ name, answer }) => ({
      name,
      status: 'ok' as const,
      detail: DEPENDENCIES[name].answered(answer.ok ? answer.ms : 0),
    })),
  };
}

/**
 * A worker or monitor asked to stop (SIGTERM) finishes what it has and takes nothing new: not ready, whatever
 * its dependencies say, so that an orchestrator counts it out while it drains.
 */
export const stoppingProcess = (): Readiness => ({
  ready: false,
  problem: new HooklineError('STOPPING', 'Not ready: this process is stopping', [
    { field: 'process', message: 'stopping: it takes no new work and finishes the work in hand' },
  ]),
});
