import { bullmqRatiosToMaximum, costLine } from './rate-rows';
import type { PhaseResult } from './results';
import { boundAtMost } from './target-check';

/** A window in which the bench, Redis and the Workers' process spent these µs per job. */
const jobs = (perSecond: number, bench: number, redis: number, workers: number): PhaseResult => ({
  perSecond,
  hangingReceipts: 0,
  seconds: 3,
  usage: {
    cpuPercent: { bench: 1, redis: 1 },
    workers: [],
    cpuMicrosPerDelivery: { bench, redis, workers },
    redisPerDelivery: { calls: 0, cpuMicros: 0, top: [] },
    redisConnectionsOpened: 0,
    redisConnectionsPerDelivery: 0,
  },
});

describe('the cost line', () => {
  it('turns CPU µs per delivery into core-ms per delivery and core-hours per million deliveries', () => {
    // 1,800 µs a delivery: 1.8 core-ms; a million of them 1.8e9 µs = 0.5 core-hours.
    expect(costLine(1800)).toEqual({ coreMsPerDelivery: 1.8, coreHoursPerMillion: 0.5 });
    expect(costLine(360)).toEqual({ coreMsPerDelivery: 0.36, coreHoursPerMillion: 0.1 });
  });
});

describe("BullMQ alone's fixed-rate reference", () => {
  it('divides Redis + Workers per job at each rate by the same at the maximum, leaving the adding bench out', () => {
    const manyQueues = {
      ...jobs(10_000, 30, 80, 40),
      queues: 100,
      window: 4,
      atRates: [
        { ...jobs(100, 900, 300, 300), rate: 100 },
        { ...jobs(500, 200, 230, 160), rate: 500 },
      ],
    };
    expect(bullmqRatiosToMaximum(manyQueues)).toEqual([
      { rate: 100, micros: 600, ratio: 5 },
      { rate: 500, micros: 390, ratio: 3.25 },
    ]);
  });

  it('has no reference when the fixed-rate windows were not measured or their CPU is unknown', () => {
    expect(bullmqRatiosToMaximum({ ...jobs(10_000, 30, 80, 40), queues: 100, window: 4 })).toEqual([]);
    const unread = { ...jobs(100, 1, 1, 1), usage: undefined, rate: 100 };
    expect(
      bullmqRatiosToMaximum({ ...jobs(10_000, 30, 80, 40), queues: 100, window: 4, atRates: [unread] }),
    ).toEqual([]);
  });

  it('reports a reference above the limit as a bound the target cannot reach, not as a miss of its own', () => {
    expect(boundAtMost('t', 'bound: f', 5, 1.5)).toEqual([
      {
        target: 't',
        figure: 'bound: f',
        value: 5,
        limit: 1.5,
        ratioToTarget: 3.333,
        met: false,
        bound: true,
      },
    ]);
    expect(boundAtMost('t', 'bound: f', 1.2, 1.5)[0]).toMatchObject({ met: true, bound: true });
  });
});
