import { figuresFromHash, figuresToHash, refreshOldest, SweepTally } from './fleet-figures';

const waiting = (count: number, since?: number) => ({
  waiting: count,
  active: 0,
  paused: false,
  ...(since !== undefined ? { oldestWaitingAt: since } : {}),
});

describe('fleet figures of a sweep', () => {
  it('counts events waiting across hooks and keeps the k hooks with the oldest, oldest first', () => {
    const tally = new SweepTally(2);
    tally.add('hk_a', waiting(3, 500));
    tally.add('hk_b', waiting(1, 100));
    tally.add('hk_c', waiting(2, 300));
    tally.add('hk_d', waiting(0));
    expect(tally.finish(1000)).toEqual({
      waiting: 6,
      oldest: [
        { hookId: 'hk_b', since: 100 },
        { hookId: 'hk_c', since: 300 },
      ],
      at: 1000,
    });
    expect(tally.finish(2000)).toEqual({ waiting: 0, oldest: [], at: 2000 });
  });

  it("leaves out a suspended hook's held events: they wait for a person, not a worker", () => {
    const tally = new SweepTally();
    tally.add('hk_held', { waiting: 50, active: 0, paused: true, oldestWaitingAt: 1 });
    expect(tally.finish(10)).toEqual({ waiting: 0, oldest: [], at: 10 });
  });

  it('a hook seen twice in one sweep keeps one place among the oldest', () => {
    const tally = new SweepTally();
    tally.add('hk_a', waiting(1, 100));
    tally.add('hk_a', waiting(1, 100));
    expect(tally.finish(1).oldest).toEqual([{ hookId: 'hk_a', since: 100 }]);
  });

  it('between sweeps, a worst hook whose events went out moves on or leaves the list', () => {
    const figures = {
      waiting: 9,
      oldest: [
        { hookId: 'hk_a', since: 100 },
        { hookId: 'hk_b', since: 200 },
        { hookId: 'hk_c', since: 300 },
      ],
      at: 1000,
    };
    const fresh = new Map([
      ['hk_a', waiting(2, 400)],
      ['hk_b', waiting(0)],
    ]);
    expect(refreshOldest(figures, fresh).oldest).toEqual([
      { hookId: 'hk_c', since: 300 },
      { hookId: 'hk_a', since: 400 },
    ]);
  });

  it('round-trips through the Redis hash every monitor reads', () => {
    const figures = { waiting: 4, oldest: [{ hookId: 'hk_a', since: 5 }], at: 6 };
    expect(figuresFromHash(figuresToHash(figures))).toEqual(figures);
    expect(figuresFromHash({})).toBeUndefined();
  });
});
