/**
 * Whether an item coming after `after` would close a cycle: a path from one of `after`, following
 * what each item comes after, back to `item`. Answers the cycle as ids from `item` round to
 * `item` again (`[a, b, a]`), or null. `item` in `after` is the shortest cycle (`[a, a]`).
 */
export function cycleThrough(
  item: string,
  after: readonly string[],
  dependenciesOf: (id: string) => readonly string[],
): string[] | null {
  // Breadth first, so the cycle named is a shortest one.
  const parent = new Map<string, string>();
  const queue: string[] = [];
  for (const d of after) {
    if (d === item) return [item, item];
    if (!parent.has(d)) {
      parent.set(d, item);
      queue.push(d);
    }
  }
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const next of dependenciesOf(at)) {
      if (next === item) {
        const path = [at];
        for (let p = parent.get(at); p !== undefined && p !== item; p = parent.get(p)) path.push(p);
        return [item, ...path.reverse(), item];
      }
      if (!parent.has(next)) {
        parent.set(next, at);
        queue.push(next);
      }
    }
  }
  return null;
}
