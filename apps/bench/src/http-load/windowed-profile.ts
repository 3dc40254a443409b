import { readFileSync } from 'node:fs';
import { IDLE, moduleOf, shortUrl, type CpuProfile, type ProfileNode } from '../system/profile-summary';

// The HTTP-tier load script's profiles: like the bench's summary (system/profile-summary.ts), but over the
// measured windows only, and with the hookline frames ranked by total time (callees included).

/** A profile as `node --cpu-prof` writes it, with its start (µs, the clock of the sample times). */
interface TimedCpuProfile extends CpuProfile {
  readonly startTime: number;
}

/** Time in a function or module: self time, or total time (callees included) for the hookline frames. */
export interface Ranked {
  readonly name: string;
  readonly ms: number;
  /** Share of the busy time (idle excluded), in percent. */
  readonly percent: number;
}

export interface ProfileSummary {
  readonly busyMs: number;
  readonly selfByFunction: readonly Ranked[];
  readonly selfByModule: readonly Ranked[];
  readonly totalByHooklineFrame: readonly Ranked[];
}

function frameName(frame: ProfileNode['callFrame']): string {
  const url = shortUrl(frame.url);
  return `${frame.functionName || '(anonymous)'}${url ? ` ${url}:${frame.lineNumber + 1}` : ''}`;
}

const isHookline = (url: string) =>
  /\/(apps|packages)\/[^/]+\/dist\//.test(url) && !url.includes('node_modules');

/** Monotonic clock microseconds (process.hrtime), the clock the profile's timestamps use on Linux. */
export interface TimeWindow {
  readonly from: number;
  readonly to: number;
}

/** Samples within `window` only, when given: the measured load, not start-up or setup. */
export function summarizeProfile(path: string, window?: TimeWindow, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as TimedCpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const byModule = new Map<string, number>();
  const total = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const node = nodes.get(id);
    const micros = profile.timeDeltas[i] ?? 0;
    at += micros;
    if (window && (at < window.from || at > window.to)) return;
    if (!node || IDLE.has(node.callFrame.functionName)) return;
    busy += micros;
    const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + micros);
    add(self, frameName(node.callFrame));
    add(byModule, moduleOf(node.callFrame.url, node.callFrame.functionName));
    // Each hookline frame on the stack once, however deep the recursion.
    const seen = new Set<string>();
    for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
      const frame = nodes.get(up)!.callFrame;
      if (!isHookline(frame.url)) continue;
      const name = frameName(frame);
      if (!seen.has(name)) add(total, name);
      seen.add(name);
    }
  });
  const rank = (m: Map<string, number>, n: number): Ranked[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, micros]) => ({
        name,
        ms: Math.round(micros / 1000),
        percent: busy > 0 ? Math.round((micros / busy) * 1000) / 10 : 0,
      }));
  return {
    busyMs: Math.round(busy / 1000),
    selfByFunction: rank(self, top),
    selfByModule: rank(byModule, 15),
    totalByHooklineFrame: rank(total, top),
  };
}

/** With `events`, each row also says how many microseconds it costs per event. */
export function formatSummary(summary: ProfileSummary, events?: number): string {
  const perEvent = (ms: number) =>
    events ? `${String(Math.round((ms * 1000) / events)).padStart(5)} µs/event  ` : '';
  const table = (title: string, rows: readonly Ranked[]) => [
    title,
    ...rows.map(
      (r) =>
        `  ${String(r.percent).padStart(5)}%  ${String(r.ms).padStart(6)} ms  ${perEvent(r.ms)}${r.name}`,
    ),
  ];
  return [
    `busy ${summary.busyMs} ms${events ? ` for ${events} events: ${perEvent(summary.busyMs).trim()}` : ''}`,
    ...table('self time by module:', summary.selfByModule),
    ...table('self time by function:', summary.selfByFunction),
    ...table('total time of hookline frames (callees included):', summary.totalByHooklineFrame),
  ].join('\n');
}
