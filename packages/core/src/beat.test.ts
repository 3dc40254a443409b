import { joinBeat, nextBeat, runOnBeat } from './beat';

describe('the process beat', () => {
  it('runs every task of a period in the same turn, each until it leaves', async () => {
    const turns: string[] = [];
    let turn = 0;
    // A turn counter bumped by a macrotask: tasks that run in the same timer callback see the same value.
    const bump = setInterval(() => (turn += 1), 1);
    const leaveA = joinBeat(40, () => turns.push(`a${turn}`));
    await new Promise((resolve) => setTimeout(resolve, 17)); // joined at another moment
    const leaveB = joinBeat(40, () => turns.push(`b${turn}`));
    await new Promise((resolve) => setTimeout(resolve, 130));
    leaveA();
    const before = turns.length;
    await new Promise((resolve) => setTimeout(resolve, 90));
    leaveB();
    clearInterval(bump);
    const pairs = turns.slice(0, before);
    // Each beat ran both, b right after a, in the same turn.
    for (let i = 0; i < pairs.length; i += 2) expect(pairs[i + 1]).toBe(`b${pairs[i]!.slice(1)}`);
    expect(pairs.length).toBeGreaterThanOrEqual(4);
    // After a left, only b ran.
    expect(turns.slice(before).every((t) => t.startsWith('b'))).toBe(true);
    expect(turns.length).toBeGreaterThan(before);
  });

  it('nextBeat resolves on the next beat, or at once when cancelled', async () => {
    const ticks: number[] = [];
    const leave = joinBeat(30, () => ticks.push(ticks.length));
    await nextBeat(30).done;
    expect(ticks.length).toBeGreaterThanOrEqual(1);
    const waiting = nextBeat(30);
    const at = ticks.length;
    waiting.cancel();
    await waiting.done;
    expect(ticks.length).toBe(at);
    leave();
  });

  it('runOnBeat does not stack a slow run behind, reports a failed one and runs again', async () => {
    let started = 0;
    let release: () => void = () => undefined;
    const errors: unknown[] = [];
    const task = runOnBeat(
      20,
      async () => {
        started += 1;
        if (started === 1) await new Promise<void>((resolve) => (release = resolve));
        if (started === 2) throw new Error('Redis is away');
      },
      (error) => errors.push(error),
    );
    await new Promise((resolve) => setTimeout(resolve, 110)); // five beats while the first run hangs
    expect(started).toBe(1);
    release();
    await task.inFlight();
    await new Promise((resolve) => setTimeout(resolve, 110));
    task.leave();
    await task.inFlight();
    expect(errors).toEqual([new Error('Redis is away')]);
    expect(started).toBeGreaterThanOrEqual(3);
  });
});
