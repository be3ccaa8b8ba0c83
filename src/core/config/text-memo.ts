/**
 * Remembers what the last few texts parsed to. A draft's answer checks the whole config set again
 * after each edit, and every file but the edited one is the same text as last time: parsing them
 * again was most of the cost of answering an op on a large library. Callers treat what they get
 * as read-only (the parse results are shared), which the config model already does: it builds new
 * trees when it merges and never changes one it was given.
 */
export class TextMemo<T> {
  private readonly map = new Map<string, T>();

  constructor(private readonly size: number) {}

  /** Every key and value, the oldest first. */
  entries(): [string, T][] {
    return [...this.map];
  }

  get(key: string, compute: () => T): T {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      // Most recently used last, so the oldest entry is the first one out.
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = compute();
    this.map.set(key, value);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value!);
    return value;
  }
}
