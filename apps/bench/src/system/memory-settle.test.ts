import { settleMemory, type MemorySample } from './memory-settle';

/** A scripted fleet on a fake clock: each step of 1 s returns the next samples. */
function scripted(steps: readonly (readonly MemorySample[])[]) {
  let t = 0;
  let i = 0;
  return {
    sample: async () => steps[Math.min(i++, steps.length - 1)]!,
    now: () => t,
    wait: async (ms: number) => {
      t += ms;
    },
  };
}
const timing = { withinMs: 10_000, quietMs: 2_000, everyMs: 1_000 };
const w = (pid: number, rssMb: number, majorGcs?: number): MemorySample => ({
  pid,
  rssMb,
  ...(majorGcs !== undefined ? { majorGcs } : {}),
});

describe('settleMemory', () => {
  it('reads RSS once a worker has run a full collection and none for the quiet time after', async () => {
    const fleet = scripted([
      [w(1, 170, 5), w(2, 160, 9)],
      [w(1, 171, 5), w(2, 130, 10)],
      [w(1, 140, 6), w(2, 95, 11)],
      [w(1, 90, 7), w(2, 91, 11)],
      [w(1, 90, 7), w(2, 91, 11)],
      [w(1, 90, 7), w(2, 91, 11)],
      [w(1, 88, 7), w(2, 91, 11)],
    ]);
    const result = await settleMemory(fleet.sample, timing, fleet.now, fleet.wait);
    expect(result).toEqual([
      { pid: 1, rssMbAfterTraffic: 170, rssMb: 90, settled: true, waitedMs: 5_000 },
      { pid: 2, rssMbAfterTraffic: 160, rssMb: 91, settled: true, waitedMs: 4_000 },
    ]);
  });

  it('says a worker did not settle when no full collection came within the wait, with its last RSS', async () => {
    const fleet = scripted([[w(1, 170, 5)], [w(1, 172, 5)], [w(1, 175, 5)]]);
    const result = await settleMemory(fleet.sample, timing, fleet.now, fleet.wait);
    expect(result).toEqual([
      { pid: 1, rssMbAfterTraffic: 170, rssMb: 175, settled: false, waitedMs: 10_000 },
    ]);
  });

  it('takes a late first answer of the metrics as the baseline, not as a collection', async () => {
    const fleet = scripted([[w(1, 170)], [w(1, 168, 4)], [w(1, 166, 4)], [w(1, 165, 4)], [w(1, 160, 4)]]);
    const result = await settleMemory(fleet.sample, timing, fleet.now, fleet.wait);
    expect(result[0]).toMatchObject({ settled: false, rssMb: 160 });
  });

  it('does not count a worker whose metrics never answered as settled', async () => {
    const fleet = scripted([[w(1, 170)], [w(1, 120)]]);
    const result = await settleMemory(fleet.sample, timing, fleet.now, fleet.wait);
    expect(result[0]).toMatchObject({ settled: false, rssMb: 120 });
  });
});
