// A map that keeps at most a byte budget of values, least recently used first out (a Map iterates in
// insertion order, so a use moves the entry to the end). The availability cache keeps its days and
// its assembled answers in two of these (availability.cache.ts).
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** The value under key, marked as used; undefined when none is kept. */
  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /** Keeps value under key (a value larger than a quarter of the budget is not kept), forgetting the least used past the budget. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes / 4) return;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    for (const [oldest, e] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= e.bytes;
    }
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.total -= old.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.total;
  }
}
