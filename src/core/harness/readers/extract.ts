import type { Condition, Extract } from '../../../contract/harness/provider.js';

/*
 * The declarative half of the readers: JSON-path style lookups over one event. Paths are `$`,
 * `$.a.b`, `$.list.0`; a `*` segment sums the numbers found under every key of a map (or item of
 * a list), which is how Claude's per-model `modelUsage` becomes one total.
 */

export interface ExtractContext {
  /** Epoch milliseconds now; only `seconds_from_now` needs it (null: that extraction gives nothing). */
  now: (() => number) | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export function lookup(event: unknown, path: string): unknown {
  const segs = path === '$' ? [] : path.slice(2).split('.');
  return walk(event, segs);
}

function walk(node: unknown, segs: string[]): unknown {
  if (segs.length === 0) return node;
  const [seg, ...rest] = segs as [string, ...string[]];
  if (seg === '*') {
    if (!isRecord(node)) return undefined;
    const values = Array.isArray(node) ? node : Object.values(node);
    let sum: number | undefined;
    for (const v of values) {
      const got = walk(v, rest);
      if (typeof got === 'number') sum = (sum ?? 0) + got;
    }
    return sum;
  }
  if (Array.isArray(node)) return /^\d+$/.test(seg) ? walk(node[Number(seg)], rest) : undefined;
  if (!isRecord(node) || !Object.prototype.hasOwnProperty.call(node, seg)) return undefined;
  return walk(node[seg], rest);
}

function iso(ms: number): string | null {
  const d = new Date(ms);
  return Number.isFinite(d.getTime()) ? d.toISOString() : null;
}

/** The value an extraction gives for one event; undefined when it gives nothing. */
export function extract(event: unknown, spec: Extract, ctx: ExtractContext): unknown {
  if (typeof spec === 'string') return lookup(event, spec);
  if (spec.const !== undefined) return spec.const;
  if (spec.path === undefined) return undefined;
  let value: unknown;
  for (const p of Array.isArray(spec.path) ? spec.path : [spec.path]) {
    value = lookup(event, p);
    if (value !== undefined && value !== null) break;
  }
  if (value === undefined || value === null) return undefined;
  if (spec.regex !== undefined) {
    if (typeof value !== 'string') return undefined;
    const m = new RegExp(spec.regex).exec(value);
    if (!m) return undefined;
    value = m[1] ?? m[0];
  }
  if (spec.minus !== undefined) {
    const sub = lookup(event, spec.minus);
    if (typeof value !== 'number') return undefined;
    value = value - (typeof sub === 'number' ? sub : 0);
  }
  switch (spec.as) {
    case 'value':
      return value;
    case 'count':
      return Array.isArray(value) ? value.length : isRecord(value) ? Object.keys(value).length : undefined;
    case 'epoch_seconds_iso':
      return typeof value === 'number' || typeof value === 'string'
        ? (iso(Number(value) * 1000) ?? undefined)
        : undefined;
    case 'epoch_ms_iso':
      return typeof value === 'number' || typeof value === 'string'
        ? (iso(Number(value)) ?? undefined)
        : undefined;
    case 'iso': {
      const t = typeof value === 'string' ? Date.parse(value) : NaN;
      return Number.isFinite(t) ? iso(t) : undefined;
    }
    case 'single_key': {
      if (!isRecord(value) || Array.isArray(value)) return undefined;
      const keys = Object.keys(value);
      return keys.length === 1 ? keys[0] : undefined;
    }
    case 'seconds_from_now': {
      const s = Number(value);
      if (!ctx.now || !Number.isFinite(s)) return undefined;
      return iso(ctx.now() + Math.round(s * 1000)) ?? undefined;
    }
  }
}

/** Whether one condition holds for the value at its path. Patterns match case-insensitively. */
export function holds(value: unknown, cond: Condition): boolean {
  if (cond === null || typeof cond !== 'object') return value === cond;
  if (cond.exists !== undefined && (value !== undefined && value !== null) !== cond.exists) return false;
  if (cond.not !== undefined && value === cond.not) return false;
  if (
    cond.matches !== undefined &&
    !(typeof value === 'string' && new RegExp(cond.matches, 'i').test(value))
  ) {
    return false;
  }
  if (
    cond.not_matches !== undefined &&
    typeof value === 'string' &&
    new RegExp(cond.not_matches, 'i').test(value)
  ) {
    return false;
  }
  return true;
}
