import { RoundRobin } from './round-robin';

describe('round robin over quiet hooks', () => {
  it('takes the hooks in order and starts again after the last', () => {
    const rr = new RoundRobin(3);
    const idle = () => false;
    expect([1, 2, 3, 4, 5, 6, 7].map(() => rr.next(idle))).toEqual([0, 1, 2, 0, 1, 2, 0]);
    expect(rr.skipped).toBe(0);
  });

  it('passes over a hook whose last event is still outstanding, and counts it', () => {
    const rr = new RoundRobin(4);
    const outstanding = new Set([1]);
    const busy = (p: number) => outstanding.has(p);
    expect([rr.next(busy), rr.next(busy), rr.next(busy)]).toEqual([0, 2, 3]);
    expect(rr.skipped).toBe(1);
    outstanding.clear();
    expect([rr.next(busy), rr.next(busy)]).toEqual([0, 1]);
  });

  it('gives up after one lap when every hook is busy', () => {
    const rr = new RoundRobin(3);
    expect(rr.next(() => true)).toBeUndefined();
    expect(rr.skipped).toBe(3);
    expect(rr.next(() => false)).toBe(0);
  });
});
