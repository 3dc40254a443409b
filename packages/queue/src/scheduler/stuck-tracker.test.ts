import { StuckTracker } from './stuck-tracker';

const AFTER = 60_000;

describe("the watchdog's judgement of a hook", () => {
  it('wakes a hook stuck for the stuck-after time, then reports it if it stays stuck as long again', () => {
    const t = new StuckTracker(AFTER);
    expect(t.observe('hk_1', true, 0)).toBeUndefined();
    expect(t.observe('hk_1', true, AFTER - 1)).toBeUndefined();
    expect(t.observe('hk_1', true, AFTER)).toEqual({ kind: 'wake', since: 0 });
    expect(t.observe('hk_1', true, 2 * AFTER - 1)).toBeUndefined();
    expect(t.observe('hk_1', true, 2 * AFTER)).toEqual({ kind: 'report', since: 0 });
    // Reported once; woken again every stuck-after time until it recovers, never reported twice.
    expect(t.observe('hk_1', true, 2 * AFTER + 1)).toBeUndefined();
    expect(t.observe('hk_1', true, 3 * AFTER)).toEqual({ kind: 'wake', since: 0 });
    expect(t.observe('hk_1', false, 3 * AFTER + 5)).toEqual({ kind: 'recovered', since: 0 });
    expect(t.watched()).toEqual([]);
  });

  it('forgets a hook found attended once: a worker handing it over is not stuck', () => {
    const t = new StuckTracker(AFTER);
    t.observe('hk_1', true, 0);
    expect(t.observe('hk_1', false, 1000)).toBeUndefined();
    expect(t.observe('hk_1', true, AFTER)).toBeUndefined();
    expect(t.observe('hk_1', true, 2 * AFTER - 1)).toBeUndefined();
    expect(t.observe('hk_1', true, 2 * AFTER)).toEqual({ kind: 'wake', since: AFTER });
  });

  it('a woken hook that a worker then serves is forgotten without a report', () => {
    const t = new StuckTracker(AFTER);
    t.observe('hk_1', true, 0);
    t.observe('hk_1', true, AFTER);
    expect(t.observe('hk_1', false, AFTER + 100)).toBeUndefined();
  });

  it('follows a hook reported earlier (by another monitor) until it recovers, without reporting it again', () => {
    const t = new StuckTracker(AFTER);
    t.adoptReported('hk_1', 0);
    expect(t.observe('hk_1', true, AFTER)).toEqual({ kind: 'wake', since: 0 });
    expect(t.observe('hk_1', false, AFTER + 1)).toEqual({ kind: 'recovered', since: 0 });
  });

  it('follows a bounded number of hooks at once', () => {
    const t = new StuckTracker(AFTER, 2);
    for (const id of ['hk_1', 'hk_2', 'hk_3']) t.observe(id, true, 0);
    expect(t.watched()).toEqual(['hk_1', 'hk_2']);
  });
});
