import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { acksPhase, formatAcks } from './acks/acks-phase';
import { formatIdleFleet, idleFleet } from './idle/idle-fleet';
import { parseOptions } from './options';
import { bullmqRatiosToMaximum, formatRateRows, hooklineMicros } from './rate-rows';
import { formatReport } from './report';
import { REPO_ROOT } from './repo-root';
import { runBench } from './run-bench';

// `pnpm bench`: progress on stderr; the table, then the JSON, on stdout; the JSON also in artifacts/bench.
async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  if (typeof options === 'string') {
    process.stderr.write(`${options}\n`);
    return 2;
  }
  let cleanup: (() => Promise<void>) | undefined;
  const interrupt = () => {
    process.stderr.write('interrupted: stopping workers and removing keys\n');
    void (cleanup?.() ?? Promise.resolve()).finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  if (options.only === 'acks') {
    const acks = await acksPhase(
      options,
      (line) => process.stderr.write(`${line}\n`),
      (fn) => (cleanup = fn),
    );
    process.stdout.write(`${formatAcks(acks)}\n\n${JSON.stringify(acks, null, 2)}\n`);
    return 0;
  }
  if (options.only === 'idle') {
    const idle = await idleFleet(
      options,
      (line) => process.stderr.write(`${line}\n`),
      (fn) => (cleanup = fn),
    );
    process.stdout.write(`${formatIdleFleet(idle)}\n\n${JSON.stringify(idle, null, 2)}\n`);
    return 0;
  }
  const results = await runBench(
    options,
    (line) => process.stderr.write(`${line}\n`),
    (fn) => (cleanup = fn),
  );
  const json = JSON.stringify(results, null, 2);
  const outFile = resolve(REPO_ROOT, options.outFile);
  await mkdir(dirname(outFile), { recursive: true });
  await writeFile(outFile, `${json}\n`);
  const busyMax = results.hookline.configured.throughput;
  const rates = results.fixedRates
    ? `${formatRateRows(results.fixedRates, hooklineMicros(busyMax), bullmqRatiosToMaximum(results.bullmq.manyQueues))}\n\n`
    : '';
  process.stdout.write(`${formatReport(results)}\n\n${rates}${json}\n`);
  process.stderr.write(`results written to ${outFile}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
