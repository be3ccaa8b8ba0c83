/**
 * How deep JSON from outside nests. Recursive code (validators, YAML writers, JSON.stringify,
 * structuredClone) overflows the stack a few hundred levels down, so whatever reads JSON a caller
 * or a task wrote bounds its depth first, with this iterative walk.
 */

/**
 * The first place where `value` nests deeper than `max`, as the path of keys leading there, or
 * null. Iterative on purpose: the check itself must not be what overflows.
 */
export function tooDeep(value: unknown, max: number): string[] | null {
  interface Frame {
    v: object;
    depth: number;
    key: string;
    up: Frame | null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const stack: Frame[] = [{ v: value, depth: 0, key: '', up: null }];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.depth >= max) {
      const path: string[] = [];
      for (let at: Frame | null = f; at?.up; at = at.up) path.unshift(at.key);
      return path;
    }
    for (const k in f.v) {
      const child = (f.v as Record<string, unknown>)[k];
      if (typeof child === 'object' && child !== null)
        stack.push({ v: child, depth: f.depth + 1, key: k, up: f });
    }
  }
  return null;
}
