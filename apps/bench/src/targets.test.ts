import type { PhaseResult } from './results';
import { atLeast, atMost, mostOf, share, worstOf } from './targets';

const phase = (perSecond: number, connectionsPerDelivery?: number): PhaseResult => ({
  perSecond,
  hangingReceipts: 0,
  seconds: 8,
  ...(connectionsPerDelivery !== undefined
    ? {
        usage: {
          cpuPercent: { bench: 1, redis: 1 },
          workers: [],
          cpuMicrosPerDelivery: { bench: 1, redis: 1 },
          redisPerDelivery: { calls: 0, cpuMicros: 0, top: [] },
          redisConnectionsOpened: Math.round(connectionsPerDelivery * perSecond * 8),
          redisConnectionsPerDelivery: connectionsPerDelivery,
        },
      }
    : {}),
});

describe('target checks', () => {
  it('compares at least / at most, with the ratio to the limit', () => {
    expect(atLeast('t', 'f', 0.9, 0.8)).toEqual([
      { target: 't', figure: 'f', value: 0.9, limit: 0.8, ratioToTarget: 1.125, met: true },
    ]);
    expect(atMost('t', 'f', 60, 50)[0]).toMatchObject({ ratioToTarget: 1.2, met: false });
  });

  it('checks "0 lost" without dividing by zero', () => {
    expect(atMost('t', 'f', 0, 0)[0]).toMatchObject({ ratioToTarget: 0, met: true });
    const missed = atMost('t', 'f', 3, 0)[0]!;
    expect(missed.met).toBe(false);
    expect(missed.ratioToTarget).toBeUndefined();
  });

  it('leaves out a target whose figure is unknown', () => {
    expect(atMost('t', 'f', undefined, 1)).toEqual([]);
  });

  it('divides only known figures by a known, non-zero one', () => {
    expect(share(2000, 2500)).toBe(0.8);
    expect(share(undefined, 2500)).toBeUndefined();
    expect(share(2000, 0)).toBeUndefined();
  });

  it('names the phase with the most connections opened per delivery, skipping unknown ones', () => {
    const pick = (p: PhaseResult) => p.usage?.redisConnectionsPerDelivery;
    const phases = [
      ['a', phase(1000, 0)],
      ['b', phase(1000)],
      ['c', phase(500, 0.02)],
      ['d', phase(800, 0.001)],
    ] as const;
    expect(worstOf(phases, pick)).toEqual({ label: 'c', value: 0.02 });
    expect(worstOf([['b', phase(1000)]], pick)).toBeUndefined();
  });

  it('takes the most of every worker, and nothing when one of them is unknown', () => {
    expect(mostOf([3, 1.2])).toBe(3);
    expect(mostOf([3, undefined])).toBeUndefined();
    expect(mostOf([])).toBeUndefined();
  });
});
