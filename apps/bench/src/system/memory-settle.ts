import { sleep } from '../clock';

/** What a worker's settle needs of a sample: its RSS and how many full (mark-compact) collections it ran. */
export interface MemorySample {
  readonly pid: number;
  readonly rssMb: number;
  /** From the worker's /metrics; absent when it did not answer in time. */
  readonly majorGcs?: number;
}

export interface SettledWorker {
  readonly pid: number;
  /** RSS when the wait began, the traffic just over: the heap still holds what the load left uncollected. */
  readonly rssMbAfterTraffic: number;
  /** RSS once settled, or at the end of the wait when it did not settle. */
  readonly rssMb: number;
  readonly settled: boolean;
  readonly waitedMs: number;
}

export interface SettleTiming {
  /** How long to wait at most: V8's memory reducer starts after 8 s of low allocation and retries every 8 s. */
  readonly withinMs: number;
  /** No further full collection for this long: the reducer runs up to 3 of them, 500 ms apart. */
  readonly quietMs: number;
  readonly everyMs: number;
}

export const SETTLE_TIMING: SettleTiming = { withinMs: 90_000, quietMs: 3_000, everyMs: 1_000 };

/**
 * Waits until each worker's memory has settled after the traffic: V8 keeps the pages a load grew its heap to
 * until a full collection with little allocation going on (its memory reducer) gives them back, tens of
 * seconds after the load. A worker counts as settled once it has run a full collection since the wait began
 * and none for `quietMs` after; its RSS is read then. Both figures are reported: the one right after traffic is
 * what a container's limit must allow, the settled one what a worker holds at rest.
 */
export async function settleMemory(
  sample: () => Promise<readonly MemorySample[]>,
  timing: SettleTiming = SETTLE_TIMING,
  now: () => number = Date.now,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<SettledWorker[]> {
  const began = now();
  const workers = (await sample()).map((s) => ({
    first: s,
    latest: s,
    gcs: s.majorGcs,
    lastGcAt: undefined as number | undefined,
    settledAt: undefined as number | undefined,
  }));
  for (;;) {
    const open = workers.filter((w) => w.settledAt === undefined);
    if (open.length === 0 || now() - began >= timing.withinMs) break;
    await wait(timing.everyMs);
    const at = now();
    const samples = await sample();
    for (const w of open) {
      const s = samples.find((x) => x.pid === w.first.pid);
      if (!s) continue;
      w.latest = s;
      if (s.majorGcs !== undefined && s.majorGcs !== w.gcs) {
        // A first answer from a worker whose metrics were late is its baseline, not a collection.
        if (w.gcs !== undefined) w.lastGcAt = at;
        w.gcs = s.majorGcs;
      }
      if (w.lastGcAt !== undefined && at - w.lastGcAt >= timing.quietMs) w.settledAt = at;
    }
  }
  return workers.map((w) => ({
    pid: w.first.pid,
    rssMbAfterTraffic: w.first.rssMb,
    rssMb: w.latest.rssMb,
    settled: w.settledAt !== undefined,
    waitedMs: (w.settledAt ?? now()) - began,
  }));
}
