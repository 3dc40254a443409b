import { cpuPerDelivery, type PhaseResult } from './results';
import type { PhaseUsage } from './system/usage-probe';

const phase = (cpu: PhaseUsage['cpuMicrosPerDelivery'], perSecond = 1000): PhaseResult => ({
  perSecond,
  hangingReceipts: 0,
  seconds: 8,
  usage: {
    cpuPercent: { bench: 40, redis: 60 },
    workers: [],
    cpuMicrosPerDelivery: cpu,
    redisPerDelivery: { calls: 0, cpuMicros: 0, top: [] },
    redisConnectionsOpened: 0,
    redisConnectionsPerDelivery: 0,
  },
});

describe('CPU per delivery', () => {
  it('adds every process: bench, Redis, workers and the monitor', () => {
    expect(cpuPerDelivery(phase({ bench: 150, redis: 200, workers: 250, monitor: 5 }))).toBe(605);
    expect(cpuPerDelivery(phase({ bench: 150, redis: 200, workers: 250 }))).toBe(600);
  });

  it('adds the HTTP tier where the phase publishes through it', () => {
    expect(cpuPerDelivery(phase({ bench: 150, redis: 200, workers: 250, monitor: 5, http: 120 }))).toBe(725);
  });

  it('is unknown, not lower, when the workers could not be read in time', () => {
    expect(cpuPerDelivery(phase({ bench: 150, redis: 200 }))).toBeUndefined();
  });

  it('is unknown for a phase that delivered nothing', () => {
    expect(cpuPerDelivery(phase({ bench: 150, redis: 200, workers: 0 }, 0))).toBeUndefined();
  });
});
