import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
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
// Options: --rates 500,1000 (events/s), --seconds 10 (per rate), --rounds 3, --accounts 20, --connections 8,
// --no-id (publish without an idempotency id), --cpu-prof DIR (profile each child, summarise it),
// --node-args='...' (more flags for the children). Each child's pid is printed once it is ready.

const TICKS_PER_SECOND = 100;
const WARM_UP_SECONDS = 3;

interface Options {
  readonly entries: ReadonlyArray<{ name: string; path: string }>;
  readonly rates: readonly number[];
  readonly seconds: number;
  readonly rounds: number;
  readonly accounts: number;
  readonly connections: number;
  readonly withId: boolean;
  readonly cpuProfDir?: string;
  /** Extra node flags for the children, e.g. --perf-basic-prof for `perf record -p <pid>`. */
  readonly nodeArgs: readonly string[];
  readonly redisUrl: string;
}

interface Window {
  readonly entry: string;
  readonly rate: number;
  readonly accepted: number;
  readonly refused: number;
  readonly cpuMicrosPerEvent: number;
  /** The kernel's share of it (stime): socket writes and reads, wake-ups. */
  readonly systemMicrosPerEvent: number;
  /** µs per event of the main thread and of the helper threads (see cpuByThread). */
  readonly threads: ReadonlyMap<string, number>;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly achievedPerSecond: number;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      entry: { type: 'string', multiple: true },
      rates: { type: 'string', default: '500,1000' },
      seconds: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      accounts: { type: 'string', default: '20' },
      connections: { type: 'string', default: '8' },
      'no-id': { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
      'node-args': { type: 'string', default: '' },
    },
  });
  const entries = (values.entry ?? ['current=apps/hookline/dist/http-main.js']).map((spec) => {
    const [name, path] = spec.includes('=') ? spec.split('=', 2) : [spec, spec];
    return { name: name!, path: resolve(path!) };
  });
  return {
    entries,
    rates: values.rates.split(',').map(Number),
    seconds: Number(values.seconds),
    rounds: Number(values.rounds),
    accounts: Number(values.accounts),
    connections: Number(values.connections),
    withId: !values['no-id'],
    ...(values['cpu-prof'] ? { cpuProfDir: resolve(values['cpu-prof']) } : {}),
    nodeArgs: values['node-args'].split(' ').filter(Boolean),
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

/** User and system CPU seconds of a process so far. */
function cpuSeconds(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / TICKS_PER_SECOND, system: Number(fields[12]) / TICKS_PER_SECOND };
}

/**
 * CPU seconds (user + system) of a process's main thread (the event loop: JavaScript, parsing, syscalls) and
 * of its other threads together (V8's GC and compiler helpers, libuv's pool), which all share the name "node".
 */
function cpuByThread(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    const name = tid === String(pid) ? 'main' : 'helpers';
    threads.set(name, (threads.get(name) ?? 0) + seconds);
  }
  return threads;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
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

class Tier {
  readonly prefix = `loadtest-${randomBytes(6).toString('hex')}`;
  readonly apiKey = randomBytes(24).toString('hex');
  private child?: ChildProcess;
  pool?: Pool;

  constructor(
    private readonly entry: string,
    private readonly opts: Options,
    private readonly profileTag: string,
  ) {}

  get pid(): number {
    return this.child!.pid!;
  }

  async start(): Promise<void> {
    const port = await freePort();
    const profile = this.opts.cpuProfDir
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${this.opts.cpuProfDir}`,
          `--cpu-prof-name=${this.profileTag}.cpuprofile`,
        ]
      : [];
    this.child = spawn(process.execPath, [...this.opts.nodeArgs, ...profile, this.entry], {
      env: {
        PATH: process.env.PATH,
        REDIS_URL: this.opts.redisUrl,
        HOOKLINE_QUEUE_PREFIX: this.prefix,
        HOOKLINE_API_KEY: this.apiKey,
        HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      // Anything a node flag makes the child write (V8 logs) lands there, not in the work tree.
      cwd: tmpdir(),
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    this.pool = new Pool(`http://127.0.0.1:${port}`, { connections: this.opts.connections, pipelining: 1 });
    for (let i = 0; i < 200; i++) {
      if (this.child.exitCode !== null) throw new Error(`${this.entry} exited with ${this.child.exitCode}`);
      const ok = await this.pool
        .request({ method: 'GET', path: '/readyz' })
        .then(async (r) => (await r.body.dump(), r.statusCode === 200))
        .catch(() => false);
      if (ok) {
        process.stdout.write(`${this.profileTag}: pid ${this.child.pid}\n`);
        return;
      }
      await sleep(100);
    }
    throw new Error(`${this.entry} did not answer /readyz`);
  }

  async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const res = await this.pool!.request({
      method,
      path,
      headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: text ? (JSON.parse(text) as unknown) : undefined };
  }

  private stopping?: Promise<void>;

  stop(): Promise<void> {
    this.stopping ??= this.stopOnce();
    return this.stopping;
  }

  private async stopOnce(): Promise<void> {
    await this.pool?.close();
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    const redis = new Redis(this.opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.prefix}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await redis.unlink(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  }
}

async function createAccounts(tier: Tier, count: number): Promise<string[]> {
  const accounts: string[] = [];
  for (let i = 0; i < count; i++) {
    const account = await tier.call('POST', '/v1/accounts', { name: `load ${i}` });
    if (account.status !== 201) throw new Error(`POST /v1/accounts answered ${account.status}`);
    const id = (account.json as { id: string }).id;
    const hook = await tier.call('POST', `/v1/accounts/${id}/hooks`, {
      url: 'http://127.0.0.1:9/',
      format: 'json',
      auth: { scheme: 'none' },
    });
    if (hook.status !== 201)
      throw new Error(`POST hooks answered ${hook.status} ${JSON.stringify(hook.json)}`);
    accounts.push(id);
  }
  return accounts;
}

let sequence = 0;

function eventBody(withId: boolean): string {
  const n = ++sequence;
  const call = `${process.pid.toString(16)}-${n.toString(16)}`;
  const id = withId ? `"id":"load-${call}-${randomBytes(4).toString('hex')}",` : '';
  return (
    `{"type":"call_created",${id}"data":{"call_id":"${call}","direction":"outbound","from":"jonas1",` +
    `"from_cnam":"Jonas 1","to":"78791245","rate":0.0,"date":"2016-03-01T08:31:55.0000000"}}`
  );
}

/** Publishes at `rate` events/s for `seconds` (open loop: the schedule does not wait for answers). */
async function publishAt(
  tier: Tier,
  accounts: readonly string[],
  rate: number,
  seconds: number,
  withId: boolean,
): Promise<{ accepted: number; refused: number; latencies: number[]; elapsed: number }> {
  const latencies: number[] = [];
  let accepted = 0;
  let refused = 0;
  const inFlight = new Set<Promise<void>>();
  const total = Math.round(rate * seconds);
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
    while (sent < due) {
      const account = accounts[sent % accounts.length]!;
      const sentAt = performance.now();
      const p = tier
        .pool!.request({
          method: 'POST',
          path: `/v1/accounts/${account}/events`,
          headers: { authorization: `Bearer ${tier.apiKey}`, 'content-type': 'application/json' },
          body: eventBody(withId),
        })
        .then(async (res) => {
          await res.body.dump();
          latencies.push(performance.now() - sentAt);
          if (res.statusCode === 202) accepted++;
          else refused++;
        })
        .catch(() => void refused++);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      sent++;
    }
    await sleep(2);
  }
  await Promise.all(inFlight);
  return { accepted, refused, latencies, elapsed: (performance.now() - start) / 1000 };
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
async function measureRound(opts: Options, round: number): Promise<Window[]> {
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
      const threadsBefore = subjects.map((s) => cpuByThread(s.tier.pid));
      const runs = await everyone((s) => publishAt(s.tier, s.accounts, rate, opts.seconds, opts.withId));
      subjects.forEach((subject, i) => {
        const run = runs[i]!;
        const after = cpuSeconds(subject.tier.pid);
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
  const opts = options();
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
          ` (${w.systemMicrosPerEvent} system; by thread ${[...w.threads].map(([n, us]) => `${n} ${us}`).join(', ')})` +
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
