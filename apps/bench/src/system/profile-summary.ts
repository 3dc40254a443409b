import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// Reads the .cpuprofile files that `node --cpu-prof` writes when a worker exits, and names where the CPU went.

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface SelfTime {
  readonly name: string;
  /** Milliseconds of samples taken in this function itself (callees excluded). */
  readonly selfMs: number;
  /** Share of the busy time (idle excluded), in percent. */
  readonly percent: number;
}

export interface ProfileSummary {
  readonly busyMs: number;
  readonly functions: readonly SelfTime[];
  /** The same time grouped by where the code lives: a package, hookline itself, node internals, GC. */
  readonly modules: readonly SelfTime[];
}

/** Where a frame's code lives: a package, a hookline app or package, node internals, or native code. */
export function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  const own = /(?:apps|packages)\/([^/]+)\//.exec(url)?.[1];
  if (own) return `hookline/${own}`;
  return url.startsWith('node:') ? 'node internals' : url;
}

/** A frame's URL without the file:// scheme and the install path, e.g. `packages/queue/src/producer.ts`. */
export function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '')
    .replace(/^.*?\/(apps|packages)\//, '$1/');
}

/** Samples of these pseudo-frames are the process being idle, not busy. */
export const IDLE = new Set(['(idle)', '(program)']);

/** Self time per function and per module across one or more profiles, busiest first. */
export function summarizeProfiles(profiles: readonly CpuProfile[], top = 20): ProfileSummary {
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  let busy = 0;
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const frame = nodes.get(id)?.callFrame;
      const micros = profile.timeDeltas[i] ?? 0;
      if (!frame || IDLE.has(frame.functionName)) return;
      busy += micros;
      const where = frame.url ? ` ${shortUrl(frame.url)}:${frame.lineNumber + 1}` : '';
      const name = `${frame.functionName || '(anonymous)'}${where}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
      const mod = moduleOf(frame.url, frame.functionName);
      byModule.set(mod, (byModule.get(mod) ?? 0) + micros);
    });
  }
  const rank = (m: Map<string, number>, n: number): SelfTime[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, micros]) => ({
        name,
        selfMs: Math.round(micros / 1000),
        percent: busy > 0 ? Math.round((micros / busy) * 1000) / 10 : 0,
      }));
  return { busyMs: Math.round(busy / 1000), functions: rank(byFunction, top), modules: rank(byModule, 12) };
}

export async function readProfiles(dir: string): Promise<CpuProfile[]> {
  const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.cpuprofile'));
  return Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as CpuProfile));
}
