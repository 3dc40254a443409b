import { TurnBatch } from './turn-batch';

describe('TurnBatch', () => {
  it('hands everything asked for in one turn to a single flush, and answers each caller with its own item', async () => {
    const flushes: (readonly string[])[] = [];
    const batch = new TurnBatch<string, string>(async (items) => {
      flushes.push(items);
      return items.map((item) => item.toUpperCase());
    });
    const first = await Promise.all([batch.add('a'), batch.add('b'), batch.add('c')]);
    const second = await batch.add('d');
    expect(first).toEqual(['A', 'B', 'C']);
    expect(second).toBe('D');
    expect(flushes).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('items asked for while a flush is under way go into the next batch', async () => {
    const flushes: (readonly number[])[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batch = new TurnBatch<number, number>(async (items) => {
      flushes.push(items);
      if (flushes.length === 1) await gate;
      return items.map((n) => n * 10);
    });
    const early = batch.add(1);
    await new Promise((resolve) => setImmediate(resolve)); // the first flush has started and waits
    const late = batch.add(2);
    release();
    expect(await Promise.all([early, late])).toEqual([10, 20]);
    expect(flushes).toEqual([[1], [2]]);
  });

  it("gives every caller of a batch the flush's error, and the next batch starts afresh", async () => {
    let fail = true;
    const batch = new TurnBatch<number, number>(async (items) => {
      if (fail) throw new Error('Redis said no');
      return items;
    });
    const results = await Promise.allSettled([batch.add(1), batch.add(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batch.add(3)).toBe(3);
  });
});
