import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { openHistory, type HistoryStore } from '@hookline/history';
import { Cluster, Redis } from 'ioredis';
import { dumpStuckHooks } from './stuck-dump';
import {
  spawnEntry,
  startReceiver,
  TEST_DATABASE_URL,
  uniquePrefix,
  waitUntil,
  waitUntilSettled,
  type SpawnedProcess,
} from '@hookline/testing';
import { startLoad, type LoadRate, type Publish } from './fleet-load';

// The whole fleet from its production entry points (HTTP tier, workers, monitor) on a Redis that fails over,
// and a load like production's: events published through the API at a steady rate to many hooks, each
// publish retried with the same id on 503, as the README tells producers to. What it counts is what the
// issue's acceptance names: events received twice, accepted events never received, order per hook, requests
// in flight per hook, history records per received event, every answer of the API.

const API_KEY = 'fleet-operator-key-0123456789abcdef';
/** No new receipt for this long, with events still missing: they are not coming (a job lock is 25 s). */
const RECEIPTS_SETTLED_MS = 30_000;
/** No new history record for this long, with records still missing: they are not coming. */
const HISTORY_SETTLED_MS = 10_000;

export interface FleetOptions {
  /** REDIS_URL / REDIS_SENTINELS / REDIS_CLUSTER_NODES … for every process. */
  redisEnv: Record<string, string>;
  replicaAcks: number;
  workers: number;
  hooks: number;
  /** Events per second over all hooks. */
  rate: number;
  pgSchema: string;
}

export interface FleetReport {
  statuses: Record<string, number>;
  accepted: number;
  received: number;
  duplicates: string[];
  lost: string[];
  /** Events received before an event of their hook published earlier: the later-published one's id. */
  orderViolations: string[];
  maxInFlightPerHook: number;
  historyMissing: string[];
  historyTwice: string[];
  unknownOutcomes: number;
  exited: string[];
  /** The load the producers aimed at and reached (printed, never asserted). */
  rate: LoadRate;
  /** When each event's first copy arrived. */
  firstReceipts: ReadonlyMap<string, number>;
  /** Each event as its producer saw it. */
  publishes: ReadonlyMap<string, Publish>;
  /** The history's records of each lost event (`outcome: error`), oldest first: how it was lost. */
  lostRecords: ReadonlyMap<string, string[]>;
}

export async function startFleet(options: FleetOptions) {
  const prefix = uniquePrefix('failover');
  const closers: (() => Promise<unknown> | unknown)[] = [];
  const processes = new Map<string, SpawnedProcess>();
  const env = {
    ...options.redisEnv,
    HOOKLINE_QUEUE_PREFIX: prefix,
    HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
    HOOKLINE_API_KEY: API_KEY,
    DATABASE_URL: TEST_DATABASE_URL,
    HOOKLINE_DATABASE_SCHEMA: options.pgSchema,
    HOOKLINE_REDIS_REPLICA_ACKS: String(options.replicaAcks),
    HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8',
    HOOKLINE_METRICS_PORT: '0',
    LOG_LEVEL: 'info',
  };
  const spawn = (name: string, entry: string, extra: Record<string, string> = {}) => {
    const child = spawnEntry(entry, { ...env, ...extra });
    processes.set(name, child);
    closers.push(async () => {
      child.kill('SIGKILL');
      await child.exited;
    });
    return child;
  };

  // Half the hooks answer at once, half after 150 ms: slow hooks build a backlog across the failovers.
  const receiver = await startReceiver((req) => {
    const hook = Number(/\/h(\d+)$/.exec(req.path)?.[1] ?? 0);
    return { kind: 'status', status: 200, ...(hook % 2 === 1 ? { delayMs: 150 } : {}) };
  });
  closers.push(() => receiver.close());

  const http = spawn('http', 'apps/hookline/src/http-main.ts', { PORT: '0', HOST: '127.0.0.1' });
  await http.waitForOutput('Server listening at', 60_000);
  const port = Number(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(http.output())![1]);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return { status: res.status, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  await waitUntil(
    async () => (await call('GET', '/readyz').catch(() => ({ status: 0 }))).status === 200,
    'API ready',
    30_000,
  );
  for (let i = 0; i < options.workers; i++) {
    const worker = spawn(`worker-${i}`, 'apps/hookline/src/worker-main.ts');
    await worker.waitForOutput('worker started', 60_000);
  }
  const monitor = spawn('monitor', 'apps/hookline/src/monitor-main.ts');
  await monitor.waitForOutput('monitor listening for metrics', 60_000);

  // One account per hook: each event goes to exactly one hook, so order per hook is publish order.
  const accounts: { account: string; hook: string }[] = [];
  for (let i = 0; i < options.hooks; i++) {
    const account = String((await call('POST', '/v1/accounts', { name: `Fleet ${i}` })).json().id);
    const hook = await call('POST', `/v1/accounts/${account}/hooks`, {
      url: receiver.url(`/h${i}`),
      format: 'json',
    });
    if (hook.status !== 201) throw new Error(`hook not created: ${hook.status}`);
    accounts.push({ account, hook: String(hook.json().id) });
  }

  const load = startLoad(accounts, call, options.rate);

  const history: HistoryStore = await openHistory({
    kind: 'server',
    url: TEST_DATABASE_URL,
    schema: options.pgSchema,
  });
  closers.push(() => history.close());

  const parsed = new WeakMap<Buffer, string>();
  const callIdOf = (body: Buffer) => {
    let id = parsed.get(body);
    if (id === undefined)
      parsed.set(body, (id = (JSON.parse(body.toString()) as { call_id: string }).call_id));
    return id;
  };
  return {
    receiver,
    processes,
    /** Events accepted per second between two moments (ms since the epoch). */
    acceptedPerSecond: (from: number, to: number) => load.acceptedPerSecond(from, to),
    /** Resolves with how long after `since` the slowest hook got its first request. */
    async everyHookCarriesOn(since: number, timeoutMs = 30_000): Promise<number> {
      const firsts = await waitUntil(
        async () => {
          const first = accounts.map(() => Infinity);
          for (const r of receiver.requests) {
            const i = Number(/\/h(\d+)$/.exec(r.path)?.[1]);
            if (r.receivedAt > since) first[i] = Math.min(first[i]!, r.receivedAt);
          }
          return first.every((t) => t < Infinity) ? first : undefined;
        },
        'every hook to get a request after the promotion',
        timeoutMs,
      );
      return Math.max(...firsts) - since;
    },
    /** Stops publishing, waits for every accepted event and its history record, and counts. */
    async finish(drainMs = 45_000): Promise<FleetReport> {
      const rate = await load.stop();
      const accepted = load.accepted();
      const receivedIds = () => new Set(receiver.requests.map((r) => callIdOf(r.body)));
      // Without replica acknowledgements some events are lost for good: waiting out the whole drain time for
      // them would only make the run longer. A hook that waits for a lost attempt's lock (25 s) receives
      // nothing meanwhile, so "settled" needs longer than a lock without a new receipt.
      await waitUntilSettled(
        () => receiver.requests.length,
        () => {
          const ids = receivedIds();
          return accepted.every((id) => ids.has(id));
        },
        RECEIPTS_SETTLED_MS,
        drainMs,
      );
      if (process.env.FLEET_TRACE) {
        const ids = receivedIds();
        const stuck = accounts
          .map((a, i) => ({ ...a, i }))
          .filter(({ i }) => accepted.some((id) => !ids.has(id) && id.startsWith(`h${i}-`)));
        const redis = traceConnection(options.redisEnv);
        redis.on('error', () => undefined);
        // Bounded: a trace must never hold the test up.
        await Promise.race([
          dumpStuckHooks(
            redis,
            prefix,
            stuck.map((s) => s.hook),
          ),
          sleep(20_000),
        ]).catch(() => undefined);
        redis.disconnect();
      }
      const received = receiver.requests.map((r) => ({
        path: r.path,
        id: callIdOf(r.body),
        at: r.receivedAt,
      }));
      const rows = async () =>
        history.client.query<{ call_id: string; outcome: string; error: string | null }>(
          'SELECT call_id, outcome, error FROM attempts ORDER BY attempted_at',
        );
      // The history writer has every record within about a second of its attempt; a record missing for good
      // (lost in a lag window) must not hold the run up for the whole drain time.
      let recordCount = 0;
      await waitUntilSettled(
        async () => (recordCount = (await rows()).length),
        () => recordCount >= received.length,
        HISTORY_SETTLED_MS,
        drainMs,
      );
      await sleep(2000); // a record written twice would show now
      const recorded = await rows();
      const seen = new Map<string, number>();
      const firstReceipts = new Map<string, number>();
      for (const { id, at } of received) {
        seen.set(id, (seen.get(id) ?? 0) + 1);
        if (!firstReceipts.has(id)) firstReceipts.set(id, at);
      }
      const inHistory = new Map<string, number>();
      for (const row of recorded) inHistory.set(row.call_id, (inHistory.get(row.call_id) ?? 0) + 1);
      const lost = accepted.filter((id) => !seen.has(id));
      const lostRecords = new Map<string, string[]>(lost.map((id) => [id, []]));
      for (const row of recorded)
        lostRecords.get(row.call_id)?.push(`${row.outcome}${row.error ? `: ${row.error}` : ''}`);
      const orderViolations: string[] = [];
      const lastSeq = new Map<string, number>();
      for (const { path, id, at } of received) {
        const seq = Number(id.split('-')[1]);
        // A second copy of an event already received is a duplicate, counted there, not an order violation.
        if ((lastSeq.get(path) ?? -1) > seq && firstReceipts.get(id) === at) orderViolations.push(id);
        lastSeq.set(path, Math.max(seq, lastSeq.get(path) ?? -1));
      }
      return {
        statuses: load.statuses,
        accepted: accepted.length,
        received: received.length,
        duplicates: [...seen].filter(([, n]) => n > 1).map(([id]) => id),
        lost,
        orderViolations,
        maxInFlightPerHook: receiver.maxInFlightPerPath,
        historyMissing: [...seen.keys()].filter((id) => !inHistory.has(id)),
        historyTwice: [...inHistory].filter(([, n]) => n > 1).map(([id]) => id),
        unknownOutcomes: recorded.filter((r) => r.outcome === 'unknown').length,
        exited: [...processes]
          .filter(([, p]) => p.child.exitCode !== null || p.child.signalCode !== null)
          .map(([n]) => n),
        rate,
        firstReceipts,
        publishes: load.publishes,
        lostRecords,
      };
    },
    statuses: load.statuses,
    async close(): Promise<void> {
      await load.stop();
      if (process.env.FLEET_TRACE)
        for (const [name, p] of processes) writeFileSync(`/tmp/fleet-${name}.log`, p.output());
      for (const close of closers.splice(0).reverse()) await close();
    },
  };
}

/** FLEET_TRACE only: a connection to whatever Redis the fleet uses, for the stuck hooks' dump. */
function traceConnection(env: Record<string, string>): Cluster | Redis {
  const password = decodeURIComponent(new URL(env.REDIS_URL ?? 'redis://x').password);
  const nodes = (list: string) =>
    list.split(',').map((n) => {
      const [host, port] = n.split(':');
      return { host: host!, port: Number(port) };
    });
  if (env.REDIS_CLUSTER_NODES)
    return new Cluster(nodes(env.REDIS_CLUSTER_NODES), { redisOptions: { password } });
  if (env.REDIS_SENTINELS)
    return new Redis({ sentinels: nodes(env.REDIS_SENTINELS), name: env.REDIS_SENTINEL_MASTER, password });
  return new Redis(env.REDIS_URL ?? 'redis://127.0.0.1:6379');
}

/** The report as the tests print it: counts instead of id lists, the load reached. */
export function summary(report: FleetReport): Record<string, unknown> {
  const { firstReceipts: _receipts, publishes: _publishes, lostRecords: _records, ...rest } = report;
  return {
    ...rest,
    duplicates: report.duplicates.length,
    lost: report.lost.length,
    orderViolations: report.orderViolations.length,
    historyMissing: report.historyMissing.length,
    historyTwice: report.historyTwice.length,
  };
}
