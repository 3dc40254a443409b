import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { REPO_ROOT } from '../repo-root';

export type WorkerMode = 'auto' | 'dist' | 'source';

export interface WorkerEntry {
  readonly mode: 'dist' | 'source';
  /** Node arguments before the script. */
  readonly nodeArgs: readonly string[];
  readonly script: string;
  /** The suspension monitor, run the same way: production runs one beside the workers. */
  readonly monitorScript: string;
  /** The HTTP tier (API, website, admin), run the same way, for the phase that publishes through the API. */
  readonly httpScript: string;
  /** The HTTP floor (http-load/floor-server): Fastify and one Redis command per event, the tier's reference. */
  readonly floorScript: string;
  readonly why: string;
}

const SOURCE: WorkerEntry = {
  mode: 'source',
  nodeArgs: ['--require', 'tsx/cjs'],
  script: 'apps/hookline/src/worker-main.ts',
  monitorScript: 'apps/hookline/src/monitor-main.ts',
  httpScript: 'apps/hookline/src/http-main.ts',
  floorScript: 'apps/bench/src/http-load/floor-server.ts',
  why: 'worker sources through tsx',
};

const DIST: WorkerEntry = {
  mode: 'dist',
  nodeArgs: [],
  script: 'apps/hookline/dist/worker-main.js',
  monitorScript: 'apps/hookline/dist/monitor-main.js',
  httpScript: 'apps/hookline/dist/http-main.js',
  floorScript: 'apps/bench/dist/http-load/floor-server.js',
  why: 'built worker',
};

/**
 * `auto` runs the workers the way the bench itself runs: built when the bench is built (`pnpm bench` builds
 * the worker and its packages first, so the CPU figures are those of production JavaScript), from sources
 * when the bench runs through tsx (development, so edits are measured without a build). tsx compiles once at
 * start; after that the code runs at the same speed.
 */
export function chooseWorkerEntry(mode: WorkerMode): WorkerEntry {
  const missing = [DIST.script, DIST.monitorScript, DIST.httpScript, DIST.floorScript].find(
    (script) => !existsSync(join(REPO_ROOT, script)),
  );
  const built = missing === undefined;
  if (mode === 'dist' && !built) throw new Error(`--worker=dist: ${missing} does not exist; build it first`);
  if (mode === 'dist') return DIST;
  if (mode === 'source') return SOURCE;
  return extname(__filename) === '.js' && built ? DIST : SOURCE;
}
