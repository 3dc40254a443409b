import { Lru } from './lru';

describe('Lru', () => {
  it('evicts the least recently used entry beyond its capacity, and hands it over', () => {
    const evicted: string[] = [];
    const lru = new Lru<string, number>(2, (_, key) => evicted.push(key));
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(evicted).toEqual(['b']);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.drain()).toEqual([1, 3]);
  });

  it('keeps one entry per key and does not evict on delete or replace', () => {
    const evicted: string[] = [];
    const lru = new Lru<string, number>(2, (_, key) => evicted.push(key));
    lru.set('a', 1);
    lru.set('a', 2);
    lru.set('b', 3);
    expect(lru.delete('a')).toBe(true);
    expect(evicted).toEqual([]);
    expect(lru.drain()).toEqual([3]);
  });
});
