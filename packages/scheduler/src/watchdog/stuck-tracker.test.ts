import { StuckTracker } from './stuck-tracker';

const AFTER = 60_000;

describe("the watchdog's judgement of a hook", () => {
  it('wakes a hook stuck for the stuck-after time, then reports it if it is stuck as long after that', () => {
    const t = new StuckTracker(AFTER);
    expect(t.observe('hk_1', 'stuck', 0)).toBeUndefined();
    expect(t.observe('hk_1', 'stuck', AFTER - 1)).toBeUndefined();
    expect(t.observe('hk_1', 'stuck', AFTER)).toEqual({ kind: 'wake', since: 0 });
    expect(t.observe('hk_1', 'stuck', 2 * AFTER - 1)).toBeUndefined();
    expect(t.observe('hk_1', 'stuck', 2 * AFTER)).toEqual({ kind: 'report', since: 0 });
    // Reported once; woken again every stuck-after time until a worker serves it, never reported twice.
    expect(t.observe('hk_1', 'stuck', 2 * AFTER + 1)).toBeUndefined();
    expect(t.observe('hk_1', 'stuck', 3 * AFTER)).toEqual({ kind: 'wake', since: 0 });
    expect(t.observe('hk_1', 'signalled', 3 * AFTER + 1)).toBeUndefined();
    expect(t.observe('hk_1', 'served', 3 * AFTER + 5)).toEqual({ kind: 'recovered', since: 0 });
    expect(t.watched()).toEqual([]);
  });

  it('a woken hook waiting in the ready set is not recovered: its wake-up lost again, it is reported', () => {
    const t = new StuckTracker(AFTER);
    t.observe('hk_1', 'stuck', 0);
    expect(t.observe('hk_1', 'stuck', AFTER)).toEqual({ kind: 'wake', since: 0 });
    expect(t.observe('hk_1', 'signalled', AFTER + 100)).toBeUndefined();
    expect(t.observe('hk_1', 'stuck', AFTER + 200)).toBeUndefined();
    expect(t.observe('hk_1', 'stuck', 2 * AFTER)).toEqual({ kind: 'report', since: 0 });
  });

  it('before any wake-up, forgets a hook found signalled or served once: a worker handing it over is not stuck', () => {
    const t = new StuckTracker(AFTER);
    t.observe('hk_1', 'stuck', 0);
    expect(t.observe('hk_1', 'signalled', 1000)).toBeUndefined();
    expect(t.observe('hk_1', 'stuck', AFTER)).toBeUndefined();
    expect(t.observe('hk_1', 'served', AFTER + 1)).toBeUndefined();
    expect(t.observe('hk_1', 'stuck', AFTER + 2)).toBeUndefined();
    expect(t.observe('hk_1', 'stuck', 2 * AFTER + 1)).toBeUndefined();
    expect(t.observe('hk_1', 'stuck', 2 * AFTER + 2)).toEqual({ kind: 'wake', since: AFTER + 2 });
  });

  it('a woken hook that a worker then serves is forgotten without a report', () => {
    const t = new StuckTracker(AFTER);
    t.observe('hk_1', 'stuck', 0);
    t.observe('hk_1', 'stuck', AFTER);
    expect(t.observe('hk_1', 'served', AFTER + 100)).toBeUndefined();
    expect(t.watched()).toEqual([]);
  });

  it('follows a hook reported earlier (by another monitor) until it recovers, without reporting it again', () => {
    const t = new StuckTracker(AFTER);
    t.adoptReported('hk_1', 0);
    expect(t.observe('hk_1', 'stuck', AFTER)).toEqual({ kind: 'wake', since: 0 });
    expect(t.observe('hk_1', 'served', AFTER + 1)).toEqual({ kind: 'recovered', since: 0 });
  });

  it('follows a bounded number of hooks at once', () => {
    const t = new StuckTracker(AFTER, 2);
    for (const id of ['hk_1', 'hk_2', 'hk_3']) t.observe(id, 'stuck', 0);
    expect(t.watched()).toEqual(['hk_1', 'hk_2']);
  });
});
