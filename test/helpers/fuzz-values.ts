/*
 * Values for the route fuzz (test/fuzz-routes.test.ts): a seeded PRNG, hostile strings and numbers,
 * values shaped by an operation's JSON schema, mutations of them, and deep nesting. Everything is
 * drawn from the one PRNG, so a seed replays the same requests.
 */

/** mulberry32: small, fast, and the same sequence on every machine for a seed. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }
}

export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\t\r\n',
  '\u001b[31mred',
  '\u202eevil\u202c',
  'zero\u200bwidth',
  '\ufeffbom',
  '\u2028\u2029',
  '\ud800',
  'é😀中文',
  '..',
  '../../../../etc/passwd',
  '%2e%2e%2f',
  '/',
  '/dev/zero',
  '/proc/self/environ',
  '.git/config',
  'C:\\Windows',
  '~',
  '$HOME',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e999',
  "'; DROP TABLE work_items; --",
  '<script>alert(1)</script>',
  '{{7*7}}',
  'a'.repeat(65),
  'a'.repeat(501),
  'x'.repeat(5000),
  '😀'.repeat(300),
];

export const NASTY_NUMBERS: readonly number[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5,
  1e-320,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  123456789.123,
];

/** Known-good-looking values by field name, so schema-shaped requests also hit real things. */
export type Pools = Record<string, readonly unknown[]>;

// Fuzzed strings must never become shell commands the server then runs (that is the feature of
// these fields, not a fault): they get harmless commands instead.
const COMMAND_KEY = /_command$/;
const SAFE_COMMANDS = ['', 'true', 'echo fuzz', 'false'];

export type Schema = Record<string, any>;

/** Sets a key as an own property, even `__proto__` (plain assignment would change the prototype). */
export function put(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function boundedString(s: Schema, rng: Rng, valid: boolean): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Math.max(min, 40);
  if (valid) {
    const word = rng.pick(['fuzz', 'Fix the login page', 'a-b_c.d', 'review']);
    return word.length < min
      ? word.padEnd(min, 'z')
      : word.slice(0, Math.max(min, Math.min(max, word.length)));
  }
  switch (rng.int(6)) {
    case 0:
      return 'a'.repeat(min);
    case 1:
      return 'b'.repeat(Math.min(max, 200_000));
    case 2:
      return 'c'.repeat(max + 1 > 2_000_000 ? 0 : max + 1);
    case 3:
      return min > 0 ? 'd'.repeat(min - 1) : rng.pick(NASTY_STRINGS);
    default:
      return rng.pick(['fuzz', 'Fix the login page', 'a-b_c.d', 'x'.repeat(1 + rng.int(30))]);
  }
}

function numberFor(s: Schema, rng: Rng, valid: boolean): number {
  const int = s.type === 'integer';
  const min =
    typeof s.minimum === 'number'
      ? s.minimum
      : typeof s.exclusiveMinimum === 'number'
        ? s.exclusiveMinimum
        : -1000;
  const max = typeof s.maximum === 'number' ? s.maximum : 1000;
  if (valid) {
    const lo = typeof s.exclusiveMinimum === 'number' ? min + 1 : min;
    const v = lo + rng.next() * Math.min(max - lo, 100);
    return int ? Math.ceil(v) : v;
  }
  switch (rng.int(5)) {
    case 0:
      return min;
    case 1:
      return max;
    case 2:
      return int ? min - 1 : min - 0.001;
    case 3:
      return rng.pick(NASTY_NUMBERS);
    default: {
      const span = Math.min(max - min, 1e6);
      const v = min + rng.next() * span;
      return int ? Math.round(v) : v;
    }
  }
}

/** A small random JSON value of any type (for `{}` schemas and wrong types). */
export function anyJson(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 5 : 7)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick(NASTY_NUMBERS);
    case 3:
      return rng.pick(NASTY_STRINGS);
    case 4:
      return rng.pick(['fuzz', 'model', 'opus', 'high', 'x']);
    case 5: {
      const out: Record<string, unknown> = {};
      for (let i = rng.int(4); i > 0; i--)
        put(out, rng.pick(['a', 'model', 'effort', 'x y', '']), anyJson(rng, depth + 1));
      return out;
    }
    default:
      return Array.from({ length: rng.int(4) }, () => anyJson(rng, depth + 1));
  }
}

/**
 * A value shaped by `schema`. `valid`: inside every bound, known-good values for known field names
 * (so the request gets past validation into the service); otherwise also at or past a bound,
 * known-hostile strings and numbers, extra keys.
 */
export function fromSchema(
  schema: Schema | undefined,
  rng: Rng,
  pools: Pools,
  key = '',
  depth = 0,
  valid = false,
): unknown {
  if (COMMAND_KEY.test(key)) return rng.pick(SAFE_COMMANDS);
  const pool = pools[key];
  if (pool && pool.length > 0 && rng.chance(valid ? 0.8 : 0.6)) return rng.pick(pool);
  if (!schema || Object.keys(schema).length === 0 || depth > 6) return valid ? {} : anyJson(rng);
  if (Array.isArray(schema.anyOf))
    return fromSchema(rng.pick(schema.anyOf as Schema[]), rng, pools, key, depth, valid);
  if (Array.isArray(schema.enum))
    return valid || rng.chance(0.85) ? rng.pick(schema.enum) : rng.pick(NASTY_STRINGS);
  const type = Array.isArray(schema.type) ? rng.pick(schema.type as string[]) : schema.type;
  switch (type) {
    case 'string':
      return boundedString(schema, rng, valid);
    case 'integer':
    case 'number':
      return numberFor(schema, rng, valid);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const n = rng.chance(0.1) ? min : min + rng.int(4);
      return Array.from({ length: n }, () =>
        fromSchema(schema.items as Schema, rng, pools, key, depth + 1, valid),
      );
    }
    case 'object':
    default: {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set<string>((schema.required as string[] | undefined) ?? []);
      const out: Record<string, unknown> = {};
      for (const [k, sub] of Object.entries(props))
        if (required.has(k) || rng.chance(valid ? 0.3 : 0.5))
          out[k] = fromSchema(sub, rng, pools, k, depth + 1, valid);
      if (schema.additionalProperties !== false && !(valid && schema.properties) && rng.chance(0.4)) {
        for (let i = 1 + rng.int(3); i > 0; i--) {
          const k = rng.pick(Object.keys(pools).concat(['model', 'effort', 'attempts', 'x', '']));
          put(out, k, fromSchema(schema.additionalProperties as Schema, rng, pools, k, depth + 1, valid));
        }
      }
      return out;
    }
  }
}

/** Paths (as key lists) to every value inside `v`, the root included. */
function slots(v: unknown, at: string[] = [], out: string[][] = []): string[][] {
  out.push(at);
  if (typeof v === 'object' && v !== null)
    for (const k of Object.keys(v)) slots((v as Record<string, unknown>)[k], [...at, k], out);
  return out;
}

function setAt(root: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  let o = root as Record<string, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  put(o, path[path.length - 1]!, value);
  return root;
}

/** One to three damages: a wrong type, null, a dropped or extra key, a huge string, a hostile value. */
export function mutate(value: unknown, rng: Rng): unknown {
  let v = structuredClone(value);
  for (let n = 1 + rng.int(3); n > 0; n--) {
    const path = rng.pick(slots(v));
    switch (rng.int(7)) {
      case 0:
        v = setAt(v, path, null);
        break;
      case 1:
        v = setAt(v, path, anyJson(rng));
        break;
      case 2:
        if (path.length > 0) {
          let o = v as Record<string, unknown>;
          for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
          delete o[path[path.length - 1]!];
        }
        break;
      case 3:
        v = setAt(v, path, 'z'.repeat(rng.pick([10_000, 100_000, 600_000])));
        break;
      case 4:
        v = setAt(v, path, rng.pick(NASTY_STRINGS));
        break;
      case 5:
        v = setAt(v, path, rng.pick(NASTY_NUMBERS));
        break;
      default: {
        const o = path.reduce<unknown>((x, k) => (x as Record<string, unknown>)[k], v);
        if (typeof o === 'object' && o !== null && !Array.isArray(o))
          put(
            o as Record<string, unknown>,
            rng.pick(['extra', '__proto__', 'constructor', '']),
            anyJson(rng),
          );
        else v = setAt(v, path, [o, o]);
      }
    }
  }
  return v;
}

/** JSON text of a value nested `depth` levels (objects or arrays), built as text: no recursion. */
export function nestedText(depth: number, kind: 'object' | 'array'): string {
  return kind === 'object'
    ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
    : '['.repeat(depth) + '1' + ']'.repeat(depth);
}

export const DEPTHS = [10, 31, 33, 1000, 50_000] as const;
