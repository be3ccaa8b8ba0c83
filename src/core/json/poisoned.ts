/**
 * The path of the first key a JSON body may not hold, as the keys leading to it and the key itself,
 * or null: `__proto__`, and `prototype` inside `constructor` (what prototype poisoning sends;
 * Fastify's parser refuses both). Iterative and linked, as tooDeep is: a body nested a million
 * levels deep costs one frame per value, and the path is built only for the key found.
 */
export function poisonedKey(value: unknown): string[] | null {
  interface Frame {
    v: object;
    key: string;
    up: Frame | null;
  }
  const pathTo = (f: Frame, ...keys: string[]): string[] => {
    const up: string[] = [];
    for (let at: Frame | null = f; at?.up; at = at.up) up.push(at.key);
    return [...up.reverse(), ...keys];
  };
  if (typeof value !== 'object' || value === null) return null;
  const stack: Frame[] = [{ v: value, key: '', up: null }];
  for (let f = stack.pop(); f !== undefined; f = stack.pop()) {
    for (const k of Object.keys(f.v)) {
      const child: unknown = (f.v as Record<string, unknown>)[k];
      const isObject = typeof child === 'object' && child !== null;
      if (k === '__proto__') return pathTo(f, k);
      if (k === 'constructor' && isObject && Object.hasOwn(child, 'prototype'))
        return pathTo(f, k, 'prototype');
      if (isObject) stack.push({ v: child, key: k, up: f });
    }
  }
  return null;
}
