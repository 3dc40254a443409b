import { DrainLoop, writableEntries, type RoundDone } from './drain-loop';

// What an idle writer costs Redis: one look per idleMaxMs once it has been idle a while, not ten a second;
// and a busy one goes round after round without waiting. Fake timers, so the counts are exact.
describe('DrainLoop', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  async function run(work: (number | RoundDone)[], ms: number) {
    const rounds: number[] = [];
    const loop = new DrainLoop({
      round: async () => {
        rounds.push(Date.now());
        return work.shift() ?? 0;
      },
      idleMs: 100,
      idleMaxMs: 1000,
      onError: () => undefined,
    });
    loop.start();
    await jest.advanceTimersByTimeAsync(ms);
    await loop.stop();
    return rounds;
  }

  it('backs off while idle: 100 ms doubling to one look a second', async () => {
    const start = Date.now();
    const rounds = await run([], 10_000);
    const gaps = rounds.slice(1).map((t, i) => t - rounds[i]!);
    expect(gaps.slice(0, 5)).toEqual([100, 200, 400, 800, 1000]);
    expect(new Set(gaps.slice(4))).toEqual(new Set([1000]));
    // Ten seconds idle: 13 looks (the first, then 100+200+400+800 ms, then one a second), not 100.
    expect(rounds.filter((t) => t - start <= 10_000)).toHaveLength(13);
  });

  it('goes round again at once while there is work, and starts over at 100 ms after it', async () => {
    const rounds = await run([5, 5, 5], 1000);
    const gaps = rounds.slice(1, 5).map((t, i) => t - rounds[i]!);
    expect(gaps).toEqual([0, 0, 0, 100]);
  });

  it('gathers for 100 ms after a round that kept up, and goes again at once while work is left', async () => {
    const rounds = await run(
      [
        { took: 3, more: false },
        { took: 2, more: false },
        { took: 200, more: true },
        { took: 4, more: false },
      ],
      1000,
    );
    const gaps = rounds.slice(1, 5).map((t, i) => t - rounds[i]!);
    // The fourth round kept up: the empty look after it comes 100 ms later, and backs off from there.
    expect(gaps).toEqual([100, 100, 0, 100]);
  });

  it('waits a second after a failed round, and says why', async () => {
    const errors: unknown[] = [];
    const rounds: number[] = [];
    let fail = true;
    const loop = new DrainLoop({
      round: async () => {
        rounds.push(Date.now());
        if (fail) {
          fail = false;
          throw new Error('database down');
        }
        return 0;
      },
      onError: (error) => errors.push(error),
    });
    loop.start();
    await jest.advanceTimersByTimeAsync(1050);
    await loop.stop();
    expect(errors).toEqual([new Error('database down')]);
    expect(rounds[1]! - rounds[0]!).toBe(1000);
  });

  it('stops at once while waiting', async () => {
    const loop = new DrainLoop({ round: async () => 0, idleMs: 60_000, onError: () => undefined });
    loop.start();
    await jest.advanceTimersByTimeAsync(10);
    await expect(loop.stop()).resolves.toBeUndefined();
    expect(loop.stopped).toBe(true);
  });
});

// Both writers (history and audit) drop what they can never write, and say how much of each kind.
describe('writableEntries', () => {
  const parse = (text: string) => {
    try {
      return JSON.parse(text) as { at: string };
    } catch {
      return undefined;
    }
  };
  const horizon = Date.parse('2026-11-01T00:00:00Z');

  it('keeps parsed entries inside retention, in order, and counts the dropped ones by reason', () => {
    const dropped: [string, number][] = [];
    const kept = writableEntries(
      [
        '{"at":"2026-11-02T00:00:00Z"}',
        'not json',
        '{"at":"2026-10-01T00:00:00Z"}',
        '{"at":"2026-10-31T23:59:59Z"}',
        '{"at":"2026-11-03T00:00:00Z"}',
      ],
      parse,
      (e) => e.at,
      horizon,
      (why, count) => dropped.push([why, count]),
    );
    expect(kept).toEqual([{ at: '2026-11-02T00:00:00Z' }, { at: '2026-11-03T00:00:00Z' }]);
    expect(dropped).toEqual([
      ['unparsable', 1],
      ['older than retention', 2],
    ]);
  });

  it('says nothing when nothing is dropped', () => {
    const dropped: unknown[] = [];
    writableEntries(
      ['{"at":"2026-11-02T00:00:00Z"}'],
      parse,
      (e) => e.at,
      horizon,
      (...a) => dropped.push(a),
    );
    expect(dropped).toEqual([]);
  });
});
