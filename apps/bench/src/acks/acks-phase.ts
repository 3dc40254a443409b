import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import { dropBenchSchema } from '../history/drop-schema';
import type { BenchOptions } from '../options';
import { REPO_ROOT } from '../repo-root';
import { ratio, summarizeLatencies, type LatencySummary } from '../stats';
import { HttpTier } from '../system/http-tier';
import { chooseWorkerEntry, type WorkerEntry } from '../system/worker-entry';
import { ReplicaPair } from './replica-pair';

// `pnpm bench -- --only=acks`: what HOOKLINE_REDIS_REPLICA_ACKS=1 costs against 0, in one run, on a primary and
// a replica of the phase's own (loopback). For each setting, the HTTP tier and one worker from their production
// entry points: one hook, events published through the API one at a time (each publish's time to its 202),
// then the worker started and the hook's backlog delivered to a loopback receiver one at a time (the time
// between consecutive receipts is the time per delivery: the attempt's mark and its WAIT, the request, the
// outcome and its WAIT, the job's completion). Both settings run the same steps on the same servers, one
// after the other, so the ratios compare like with like; the absolute figures depend on the machine.

/** Events not counted at the start of each measurement (connections, script loading, JIT). */
const WARMUP = 20;

export interface AcksSide {
  readonly replicaAcks: number;
  /** API publish to its 202, one at a time. */
  readonly publish: LatencySummary;
  /** Time between consecutive receipts of one hook's backlog. */
  readonly delivery: LatencySummary;
}

export interface AcksResult {
  readonly events: number;
  readonly sides: readonly AcksSide[];
  /** acks=1 ÷ acks=0, of the medians (p50). */
  readonly publishRatio: number | undefined;
  readonly deliveryRatio: number | undefined;
}

export async function acksPhase(
  options: BenchOptions,
  step: (line: string) => void,
  onCleanup: (fn: () => Promise<void>) => void,
): Promise<AcksResult> {
  const events = options.quick ? 300 : 1000;
  const entry = chooseWorkerEntry(options.workerMode);
  const pair = await ReplicaPair.start();
  const schema = `bench_acks_${randomBytes(4).toString('hex')}`;
  const stoppers: (() => Promise<void>)[] = [
    () => pair.stop(),
    () => dropBenchSchema(options.databaseUrl, schema),
  ];
  const cleanup = async () => {
    for (const stop of stoppers.splice(0).reverse()) await stop().catch(() => undefined);
  };
  onCleanup(cleanup);
  try {
    step(
      `acks: primary on ${pair.primaryPort} with one replica; ${events} events per setting (${entry.why})`,
    );
    const sides: AcksSide[] = [];
    for (const replicaAcks of [0, 1]) {
      sides.push(await measureSide(replicaAcks, events, { options, entry, pair, schema, step, stoppers }));
      const side = sides.at(-1)!;
      step(
        `  acks=${replicaAcks}: publish p50 ${side.publish.p50Ms} ms, delivery p50 ${side.delivery.p50Ms} ms`,
      );
    }
    return {
      events,
      sides,
      publishRatio: ratio(sides[1]!.publish.p50Ms, sides[0]!.publish.p50Ms),
      deliveryRatio: ratio(sides[1]!.delivery.p50Ms, sides[0]!.delivery.p50Ms),
    };
  } finally {
    await cleanup();
  }
}

interface SideContext {
  readonly options: BenchOptions;
  readonly entry: WorkerEntry;
  readonly pair: ReplicaPair;
  readonly schema: string;
  readonly step: (line: string) => void;
  readonly stoppers: (() => Promise<void>)[];
}

async function measureSide(replicaAcks: number, events: number, ctx: SideContext): Promise<AcksSide> {
  const receipts: number[] = [];
  const receiver = await listen((req, res) => {
    req.resume();
    req.on('end', () => {
      receipts.push(performance.now());
      res.writeHead(200).end();
    });
  });
  ctx.stoppers.push(() => new Promise((resolve) => receiver.close(() => resolve())));
  const env = {
    REDIS_URL: ctx.pair.url,
    HOOKLINE_QUEUE_PREFIX: `bench-acks${replicaAcks}`,
    HOOKLINE_SECRET_KEY: randomBytes(32).toString('hex'),
    DATABASE_URL: ctx.options.databaseUrl,
    HOOKLINE_DATABASE_SCHEMA: ctx.schema,
    HOOKLINE_REDIS_REPLICA_ACKS: String(replicaAcks),
    HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8',
    HOOKLINE_METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
  };
  const logs = join(REPO_ROOT, 'artifacts', 'bench');
  await mkdir(logs, { recursive: true });
  const tier = await HttpTier.start(
    ctx.entry,
    env,
    ctx.pair.primaryPort,
    join(logs, `acks${replicaAcks}-http.log`),
  );
  ctx.stoppers.push(() => tier.stop());
  const api = async (path: string, body: unknown) => {
    const res = await request(`${tier.base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tier.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`POST ${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text) as { id: string };
  };
  const account = await api('/v1/accounts', { name: `Acks ${replicaAcks}` });
  const { port } = receiver.address() as AddressInfo;
  await api(`/v1/accounts/${account.id}/hooks`, { url: `http://127.0.0.1:${port}/in`, format: 'json' });

  const publishMicros = new Float64Array(events - WARMUP);
  for (let i = 0; i < events; i++) {
    const started = performance.now();
    await api(`/v1/accounts/${account.id}/events`, {
      type: 'call_created',
      data: { ...SAMPLE_CALL_DATA, call_id: `acks-${replicaAcks}-${i}` },
    });
    if (i >= WARMUP) publishMicros[i - WARMUP] = (performance.now() - started) * 1000;
  }

  const logFile = join(logs, `acks${replicaAcks}-worker.log`);
  const out = openSync(logFile, 'w');
  const worker = spawn(process.execPath, [...ctx.entry.nodeArgs, ctx.entry.script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  ctx.stoppers.push(async () => {
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await exited;
  });
  const deadline = Date.now() + 180_000;
  while (receipts.length < events) {
    if (Date.now() > deadline || worker.exitCode !== null)
      throw new Error(`acks=${replicaAcks}: ${receipts.length} of ${events} delivered; see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const deliveryMicros = new Float64Array(events - WARMUP - 1);
  for (let i = WARMUP + 1; i < events; i++)
    deliveryMicros[i - WARMUP - 1] = (receipts[i]! - receipts[i - 1]!) * 1000;
  return {
    replicaAcks,
    publish: summarizeLatencies(publishMicros)!,
    delivery: summarizeLatencies(deliveryMicros)!,
  };
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The phase's table: each setting's medians and means, and the ratios. */
export function formatAcks(result: AcksResult): string {
  const [zero, one] = result.sides;
  const row = (name: string, a: LatencySummary, b: LatencySummary, r: number | undefined) =>
    `| ${name} | ${a.p50Ms} / ${a.meanMs} ms | ${b.p50Ms} / ${b.meanMs} ms | ${r ?? '—'} |`;
  return [
    `Replica acknowledgements (primary + 1 replica on loopback, ${result.events} events each, one at a time)`,
    '| per | HOOKLINE_REDIS_REPLICA_ACKS=0: p50 / mean | =1: p50 / mean | ratio of p50s |',
    '|---|---|---|---|',
    row('publish (API, to the 202)', zero!.publish, one!.publish, result.publishRatio),
    row('delivery (one hook, back to back)', zero!.delivery, one!.delivery, result.deliveryRatio),
  ].join('\n');
}
