import { join } from 'node:path';
import { nowMicros, sleep } from '../clock';
import { HttpPublisher } from '../load/http-publisher';
import type { BenchHook } from '../load/hookline-load';
import { runOpenLoop } from '../load/open-loop';
import type { LatencySummary } from '../stats';
import { HttpTier } from './http-tier';
import { cpuSecondsNow } from './proc';
import type { WorkerEntry } from './worker-entry';

// The HTTP tier's reference (http-load/floor-server.ts): the same requests from the same publisher at the
// same rate, answered by Fastify after one Redis command, with no hookline code. Its CPU per 202 is what Node,
// Fastify, pino and one round trip cost on this machine at this moment; the tier's figure beside it says how
// much is hookline's own.

export interface HttpFloor {
  readonly rate: number;
  readonly accepted: number;
  /** The floor process's CPU over the window / `accepted`, µs. */
  readonly cpuMicrosPerAccepted?: number;
  readonly answer?: LatencySummary;
  /** Publishes it refused or did not answer (none expected: the figure is then not comparable). */
  readonly errors: number;
}

export interface FloorRun {
  readonly entry: WorkerEntry;
  /** REDIS_URL, HOOKLINE_QUEUE_PREFIX (its keys go under it), LOG_LEVEL: the tier's own. */
  readonly env: Record<string, string>;
  readonly redisPort: number;
  readonly artifacts: string;
  readonly hooks: readonly BenchHook[];
  readonly rate: number;
  readonly warmupMs: number;
  readonly measureMs: number;
}

export async function measureHttpFloor(run: FloorRun): Promise<HttpFloor> {
  const { entry, env, redisPort, artifacts, hooks, rate } = run;
  const floor = await HttpTier.start(
    entry,
    env,
    redisPort,
    join(artifacts, 'http-floor.log'),
    60_000,
    entry.floorScript,
  );
  const publisher = new HttpPublisher(floor.base, floor.apiKey);
  let errors = 0;
  const loop = runOpenLoop(rate, (seq, dueAt) => {
    publisher.publish(hooks[seq % hooks.length]!, dueAt).catch(() => void (errors += 1));
  });
  try {
    await sleep(run.warmupMs);
    const from = { at: nowMicros(), cpu: cpuSecondsNow(floor.pid), accepted: publisher.accepted };
    await sleep(run.measureMs);
    const to = { at: nowMicros(), cpu: cpuSecondsNow(floor.pid), accepted: publisher.accepted };
    const accepted = to.accepted - from.accepted;
    const answer = publisher.answerLatency(from.at, to.at);
    return {
      rate,
      accepted,
      ...(from.cpu !== undefined && to.cpu !== undefined && accepted > 0
        ? { cpuMicrosPerAccepted: Math.round(((to.cpu - from.cpu) * 1e6) / accepted) }
        : {}),
      ...(answer ? { answer } : {}),
      errors,
    };
  } finally {
    loop.stop();
    await publisher.close();
    await floor.stop();
  }
}
