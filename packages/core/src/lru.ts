/**
 * A Map bounded to its `capacity` most recently used entries. The least recently used entry is dropped when a
 * new one would exceed it, and handed to `onEvict` so that whatever it holds can be released.
 */
export class Lru<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(
    private readonly capacity: number,
    private readonly onEvict: (value: V, key: K) => void = () => undefined,
  ) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // A Map iterates in insertion order: re-inserting makes this entry the most recently used.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    for (const [oldKey, oldValue] of this.entries) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldKey);
      this.onEvict(oldValue, oldKey);
    }
  }

  /** Removes the entry without calling `onEvict`. */
  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** Empties the cache and returns what it held, for the owner to release. */
  drain(): V[] {
    const values = [...this.entries.values()];
    this.entries.clear();
    return values;
  }
}
