import { singleFlight } from './single-flight';

describe('singleFlight', () => {
  it('gives a call made while a run is going that run, and starts a new one after it ends', async () => {
    let runs = 0;
    let finish: () => void = () => undefined;
    const flight = singleFlight(
      () => new Promise<void>((resolve) => (runs++, (finish = resolve))),
      () => undefined,
    );
    const first = flight.run();
    expect(flight.run()).toBe(first);
    expect(flight.current).toBe(first);
    expect(runs).toBe(1);
    finish();
    await first;
    expect(flight.current).toBeUndefined();
    void flight.run();
    expect(runs).toBe(2);
    finish();
  });

  it('hands a failed run to onError, resolves, and runs again on the next call', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const flight = singleFlight(
      async () => {
        calls++;
        throw new Error(`run ${calls}`);
      },
      (error) => errors.push(error),
    );
    await expect(flight.run()).resolves.toBeUndefined();
    await flight.run();
    expect(errors.map((e) => (e as Error).message)).toEqual(['run 1', 'run 2']);
  });
});
