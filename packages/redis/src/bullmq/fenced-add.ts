import { createRequire } from 'node:module';
import { loadScript, LuaScript } from '../lua-script';

/** BullMQ's add script as it ships, includes resolved: `keys` is how many KEYS it takes. */
export interface BullmqScript {
  readonly name: string;
  readonly content: string;
  readonly keys: number;
}

// Each file is named by the script and its number of keys: an upgrade that changes the keys renames it, and
// loading fails here at start-up rather than sending the wrong keys.
const shipped = createRequire(__filename);
export const ADD_STANDARD_JOB = shipped('bullmq/dist/cjs/scripts/addStandardJob-9.js')
  .addStandardJob as BullmqScript;
/** BullMQ's moveToFinished (completes or fails a job, may take the next), which the outcome's script runs. */
export const MOVE_TO_FINISHED = shipped('bullmq/dist/cjs/scripts/moveToFinished-14.js')
  .moveToFinished as BullmqScript;

/** BullMQ's moveToActive (takes a queue's next job under a token), which the worker's take-and-mark script runs. */
export const MOVE_TO_ACTIVE = shipped('bullmq/dist/cjs/scripts/moveToActive-11.js')
  .moveToActive as BullmqScript;

/** What the fenced script returns for a stale fan-out: BullMQ's add returns a job id, or a small negative code. */
export const STALE_FANOUT_REPLY = -1000;

/**
 * A hookline script that runs one of BullMQ's scripts exactly as BullMQ ships it, as the body of a function:
 * its line `--!bullmq NAME` (addStandardJob, moveToFinished) is replaced by BullMQ's script. BullMQ's locals
 * stay inside the function.
 */
export function loadWithBullmq(name: string, dir: string, bullmq: BullmqScript): LuaScript {
  const marker = new RegExp(`^--!bullmq ${bullmq.name}$`, 'm');
  const wrapper = loadScript(name, dir).source;
  if (!marker.test(wrapper)) throw new Error(`${name}.lua lost its --!bullmq ${bullmq.name} marker`);
  return new LuaScript(
    name,
    wrapper.replace(marker, () => bullmq.content),
  );
}

/** A hookline script around BullMQ's addStandardJob (`--!bullmq addStandardJob`). */
export function loadWithBullmqAdd(
  name: string,
  dir: string,
  bullmq: BullmqScript = ADD_STANDARD_JOB,
): LuaScript {
  return loadWithBullmq(name, dir, bullmq);
}

/**
 * The fenced add (scripts/fenced-add.lua): hookline's fence, then BullMQ's addStandardJob, then, when given
 * the scheduler's keys (one Redis), the hook's signal. The fence only reads TIME and may return before BullMQ's
 * script runs; hookline's ARGV come after BullMQ's three, its KEYS after BullMQ's nine.
 */
export function loadFencedAdd(dir: string, bullmq: BullmqScript = ADD_STANDARD_JOB): LuaScript {
  return loadWithBullmqAdd('fenced-add', dir, bullmq);
}

/** A fan-out's add was refused: it read its inbox entry too long ago (see fenced-add.lua). */
export class StaleFanOutError extends Error {
  constructor(
    readonly hookId: string,
    readonly staleMs: number,
  ) {
    super(
      `fan-out to hook ${hookId} refused: its inbox entry was read more than ${staleMs} ms ago ` +
        '(the process stalled); the entry stays and is fanned out again',
    );
    this.name = 'StaleFanOutError';
  }
}
