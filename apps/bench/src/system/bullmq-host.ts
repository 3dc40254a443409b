import { createRedis } from '@hookline/redis';
import { Worker } from 'bullmq';
import type { FromHost, HostSettings, ToHost } from './bullmq-host-protocol';

// The BullMQ host: a process of its own holding no-op BullMQ Workers, one per queue, set up as hookline's
// worker sets up its per-hook Workers (apps/worker/src/hook-attachments.ts) but with nothing around them.
// It runs apart from the bench so that its CPU is counted as a worker's, as the hookline rows count theirs,
// and so that the producer (in the bench) and the Workers never wait for each other's event loop.

// Completions are sent in batches: one IPC message per job would cost more than the no-op processor.
const FLUSH_EVERY_MS = 5;

const send = (message: FromHost) => {
  if (process.connected) process.send?.(message);
};

async function host(settings: HostSettings): Promise<() => Promise<void>> {
  // Like the worker: one shared connection for every Worker (each duplicates it for its blocking reads).
  const connection = createRedis(settings.redisUrl);
  const pending = new Map<number, number>();
  const workers = settings.queueNames.map((name, index) => {
    const worker = new Worker(name, () => Promise.resolve('delivered'), {
      connection,
      prefix: settings.prefix,
      concurrency: 1,
      lockDuration: settings.lockDurationMs,
      stalledInterval: settings.stalledIntervalMs,
      maxStalledCount: settings.maxStalledCount,
      autorun: true,
    });
    worker.on('completed', () => pending.set(index, (pending.get(index) ?? 0) + 1));
    worker.on('failed', (_job, error) => send({ type: 'failed', message: error.message }));
    worker.on('error', (error) => send({ type: 'failed', message: error.message }));
    return worker;
  });
  const flush = setInterval(() => {
    if (pending.size === 0) return;
    send({ type: 'completed', counts: [...pending].flat() });
    pending.clear();
  }, FLUSH_EVERY_MS);
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  return async () => {
    await Promise.all(workers.map((w) => w.close()));
    clearInterval(flush);
    connection.disconnect();
  };
}

let stop: Promise<() => Promise<void>> | undefined;
const shutDown = async () => {
  await (await stop)?.().catch(() => undefined);
  send({ type: 'stopped' });
  process.exit(0);
};

process.on('message', (message: ToHost) => {
  if (message.type === 'start' && !stop) {
    stop = host(message.settings);
    stop.then(
      () => send({ type: 'ready' }),
      (error: unknown) => {
        send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      },
    );
  } else if (message.type === 'stop') void shutDown();
});
// The bench went away (Ctrl-C, a crash): let go of Redis rather than keep consuming its queues.
process.on('disconnect', () => void shutDown());
