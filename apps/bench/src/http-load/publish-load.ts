import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { loadOptions, type LoadOptions } from './load-options';
import { cpuByThread, cpuSeconds, syscallsOf, Tier } from './load-tier';
import { createAccounts, publishAt } from './load-traffic';
import { formatSummary, summarizeProfile, type TimeWindow } from './windowed-profile';

// What the HTTP tier costs per published event: starts the built tier (http-main.js) as a child process on its
// own queue prefix, creates accounts with one hook each through the API (hooks point at 127.0.0.1:9; no worker
// runs, so the events just queue), publishes events at fixed rates over keep-alive connections and reads the
// child's CPU time (utime + stime from /proc) around each measured window. Several builds (`--entry
// name=path`) run side by side, each at the rate, so a change is judged by its ratio to a reference measured
// under the same machine load at the same moment, not by absolute figures from different moments.
//
//   pnpm exec tsx apps/bench/src/http-load/publish-load.ts --entry base=/tmp/base/http-main.js --entry new=...
//
// `--entry floor=apps/bench/dist/http-load/floor-server.js` adds the tier's reference (Fastify and one Redis
// command per event, no hookline code; see floor-server.ts).
//
// Options: --rates 500,1000 (events/s), --seconds 10 (per rate), --rounds 3, --accounts 20, --connections 8,
// --no-id (publish without an idempotency id), --cpu-prof DIR (profile each child, summarise it),
// --node-args='...' (more flags for the children), --log-level info (the tiers' LOG_LEVEL; the product's
// default), --log-file artifacts/bench/publish-load.log (where their log lines go). Each child's pid is printed
// once it is ready.

const WARM_UP_SECONDS = 3;

interface Window {
  readonly entry: string;
  readonly rate: number;
  readonly accepted: number;
  readonly refused: number;
  readonly cpuMicrosPerEvent: number;
  /** The kernel's share of it (stime): socket writes and reads, wake-ups. */
  readonly systemMicrosPerEvent: number;
  /** Read and write system calls per event (see syscallsOf). */
  readonly readsPerEvent: number;
  readonly writesPerEvent: number;
  /** µs per event of the main thread and of the helper threads (see cpuByThread). */
  readonly threads: ReadonlyMap<string, number>;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly achievedPerSecond: number;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** A fixed amount of CPU work, timed: a reference for how fast this machine runs right now. */
function referenceMicros(): number {
  const start = process.cpuUsage();
  let digest = Buffer.alloc(32);
  for (let i = 0; i < 20_000; i++) {
    const text = JSON.stringify({ i, digest: digest.toString('hex'), at: 'call_created' });
    digest = createHash('sha256')
      .update(JSON.parse(text).digest as string)
      .digest();
  }
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);
/** Per profile: the measured windows (warm-up and setup excluded) and the events accepted in them. */
const profiled = new Map<string, { window: TimeWindow; events: number }>();

// Stopped on Ctrl-C too, so an interrupted run leaves no keys behind.
const running = new Set<Tier>();
process.once('SIGINT', () => {
  void Promise.allSettled([...running].map((tier) => tier.stop())).then(() => process.exit(130));
});

/** One build under load: its tier, the accounts it serves and the windows measured so far. */
interface Subject {
  readonly name: string;
  readonly tag: string;
  readonly tier: Tier;
  accounts: string[];
}

/**
 * Every build at once, each getting the same rate at the same time: machine load that comes and goes (other
 * work shares these cores) then weighs on all of them alike, which taking turns cannot promise.
 */
async function measureRound(opts: LoadOptions, round: number): Promise<Window[]> {
  const subjects: Subject[] = opts.entries.map((entry) => {
    const tag = `${entry.name}-${round}`;
    return { name: entry.name, tag, tier: new Tier(entry.path, opts, tag), accounts: [] };
  });
  for (const { tier } of subjects) running.add(tier);
  try {
    for (const subject of subjects) {
      await subject.tier.start();
      subject.accounts = await createAccounts(subject.tier, opts.accounts);
    }
    const everyone = <T>(run: (subject: Subject) => Promise<T>) => Promise.all(subjects.map(run));
    await everyone((s) => publishAt(s.tier, s.accounts, opts.rates[0]!, WARM_UP_SECONDS, opts.withId));
    const windows: Window[] = [];
    const from = monotonicMicros();
    for (const rate of opts.rates) {
      const before = subjects.map((s) => cpuSeconds(s.tier.pid));
      const syscallsBefore = subjects.map((s) => syscallsOf(s.tier.pid));
      const threadsBefore = subjects.map((s) => cpuByThread(s.tier.pid));
      const runs = await everyone((s) => publishAt(s.tier, s.accounts, rate, opts.seconds, opts.withId));
      subjects.forEach((subject, i) => {
        const run = runs[i]!;
        const after = cpuSeconds(subject.tier.pid);
        const syscalls = syscallsOf(subject.tier.pid);
        const perEvent = (n: number) => Math.round((n / Math.max(1, run.accepted)) * 100) / 100;
        const threads = new Map<string, number>();
        for (const [name, seconds] of cpuByThread(subject.tier.pid)) {
          const used = seconds - (threadsBefore[i]!.get(name) ?? 0);
          if (used > 0) threads.set(name, Math.round((used * 1e6) / Math.max(1, run.accepted)));
        }
        const system = after.system - before[i]!.system;
        const cpu = after.user - before[i]!.user + system;
        const sorted = run.latencies.sort((a, b) => a - b);
        windows.push({
          entry: subject.name,
          rate,
          accepted: run.accepted,
          refused: run.refused,
          cpuMicrosPerEvent: Math.round((cpu * 1e6) / Math.max(1, run.accepted)),
          systemMicrosPerEvent: Math.round((system * 1e6) / Math.max(1, run.accepted)),
          readsPerEvent: perEvent(syscalls.reads - syscallsBefore[i]!.reads),
          writesPerEvent: perEvent(syscalls.writes - syscallsBefore[i]!.writes),
          threads,
          p50Ms: Math.round(percentile(sorted, 50) * 100) / 100,
          p99Ms: Math.round(percentile(sorted, 99) * 100) / 100,
          achievedPerSecond: Math.round(run.accepted / run.elapsed),
        });
      });
    }
    const to = monotonicMicros();
    for (const subject of subjects)
      profiled.set(subject.tag, {
        window: { from, to },
        events: windows.filter((w) => w.entry === subject.name).reduce((sum, w) => sum + w.accepted, 0),
      });
    return windows;
  } finally {
    await Promise.all(subjects.map((s) => s.tier.stop()));
    for (const { tier } of subjects) running.delete(tier);
  }
}

const median = (values: readonly number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const opts = loadOptions();
  const all: Window[] = [];
  const references: number[] = [];
  for (let round = 1; round <= opts.rounds; round++) {
    const reference = referenceMicros();
    references.push(reference);
    const windows = await measureRound(opts, round);
    for (const w of windows)
      process.stdout.write(
        `round ${round} ${w.entry.padEnd(10)} ${String(w.rate).padStart(5)}/s: ${w.accepted} accepted` +
          `${w.refused ? ` (${w.refused} refused)` : ''}, ${w.cpuMicrosPerEvent} µs CPU/event` +
          ` (${w.systemMicrosPerEvent} system; ${w.readsPerEvent} reads, ${w.writesPerEvent} writes per event; by thread ${[...w.threads].map(([n, us]) => `${n} ${us}`).join(', ')})` +
          ` (reference ${reference} µs), p50 ${w.p50Ms} ms, p99 ${w.p99Ms} ms, ${w.achievedPerSecond}/s\n`,
      );
    all.push(...windows);
  }
  process.stdout.write(`\nmedians over ${opts.rounds} rounds (reference work: ${median(references)} µs)\n`);
  const first = opts.entries[0]!.name;
  for (const rate of opts.rates) {
    const baseline = median(
      all.filter((w) => w.entry === first && w.rate === rate).map((w) => w.cpuMicrosPerEvent),
    );
    const firstRows = all.filter((w) => w.entry === first && w.rate === rate);
    for (const { name } of opts.entries) {
      const rows = all.filter((w) => w.entry === name && w.rate === rate);
      const cpu = median(rows.map((w) => w.cpuMicrosPerEvent));
      // Each round's ratio to the first build in that same round, whose load both shared.
      const ratios = rows.map((w, i) => w.cpuMicrosPerEvent / firstRows[i]!.cpuMicrosPerEvent);
      process.stdout.write(
        `${name.padEnd(10)} ${String(rate).padStart(5)}/s: ${cpu} µs CPU/event` +
          ` (${median(rows.map((w) => w.systemMicrosPerEvent))} system),` +
          ` x${(cpu / baseline).toFixed(2)} of ${first}'s median,` +
          ` per round x${ratios.map((r) => r.toFixed(2)).join(' x')} (median x${median(ratios).toFixed(2)}),` +
          ` p50 ${median(rows.map((w) => w.p50Ms))} ms, p99 ${median(rows.map((w) => w.p99Ms))} ms\n`,
      );
    }
  }
  if (opts.cpuProfDir)
    for (const [tag, { window, events }] of profiled) {
      const file = join(opts.cpuProfDir, `${tag}.cpuprofile`);
      process.stdout.write(`\n== ${file}, measured windows only\n`);
      process.stdout.write(`${formatSummary(summarizeProfile(file, window), events)}\n`);
    }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
