import { WindowBatch } from './window-batch';

describe('WindowBatch', () => {
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('hands everything added within the window to one send, once the window has passed', async () => {
    const sends: (readonly string[])[] = [];
    const batch = new WindowBatch<string>(async (items) => void sends.push(items), 20);
    batch.add('a');
    batch.add('b');
    expect(sends).toEqual([]);
    await settle(60);
    batch.add('c');
    await settle(60);
    expect(sends).toEqual([['a', 'b'], ['c']]);
  });

  it('flush sends what is due at once and waits for every send so far', async () => {
    const sends: (readonly number[])[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batch = new WindowBatch<number>(async (items) => {
      sends.push(items);
      if (sends.length === 1) await gate;
    }, 60_000);
    batch.add(1);
    const first = batch.flush();
    batch.add(2);
    const second = batch.flush();
    let done = false;
    void second.then(() => (done = true));
    await settle(20);
    // One send at a time: the second waits for the first.
    expect(sends).toEqual([[1]]);
    expect(done).toBe(false);
    release();
    await Promise.all([first, second]);
    expect(sends).toEqual([[1], [2]]);
  });

  it('gives up waiting after the bound, and a send that fails fails no caller and no later send', async () => {
    const sends: (readonly number[])[] = [];
    const batch = new WindowBatch<number>(async (items) => {
      sends.push(items);
      if (sends.length === 1) await new Promise<void>(() => undefined); // never settles
    }, 60_000);
    batch.add(1);
    const startedAt = Date.now();
    await batch.flush(50);
    expect(Date.now() - startedAt).toBeLessThan(2000);

    const failing = new WindowBatch<number>(async (items) => {
      if (items[0] === 1) throw new Error('down');
      sends.push(items);
    }, 60_000);
    failing.add(1);
    await failing.flush();
    failing.add(2);
    await failing.flush();
    expect(sends).toEqual([[1], [2]]);
  });
});
