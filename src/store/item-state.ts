import { ResolvedChain } from '../contract/config/chain-model.js';
import { PolicyFile } from '../contract/config/policy.js';
import { StoredWalk, WALK_VERSION, type Walk } from '../contract/walk.js';

/*
 * The state an item keeps from its first start, as JSON columns: the frozen chain, the policy it
 * runs under, and the walk. Each is parsed with its schema when read, so the engine never works on
 * a cast; each carries a version (`v`), so a row written by a newer release is named as such
 * rather than misread. A row that does not parse leaves that part null and says why in
 * `state_error`: the engine stops the item with that reason instead of running it on a guess.
 */

/** The version of the stored chain and policy; a row without `v` is version 1 (every release so far). */
export const FROZEN_VERSION = 1;

export interface FrozenState {
  chain_definition: ResolvedChain | null;
  policy_snapshot: PolicyFile | null;
  walk: Walk | null;
  state_error: string | null;
}

type Parser<T> = (raw: unknown) => { ok: true; value: T } | { ok: false; error: string };

function versioned<T>(schema: {
  safeParse(v: unknown): { success: boolean; data?: T; error?: unknown };
}): Parser<T> {
  return (raw) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      return { ok: false, error: 'is not an object' };
    const { v, ...rest } = raw as Record<string, unknown>;
    const version = v ?? FROZEN_VERSION;
    if (version !== FROZEN_VERSION) return { ok: false, error: newerRelease(version) };
    const r = schema.safeParse(rest);
    return r.success ? { ok: true, value: r.data as T } : { ok: false, error: describe(r.error) };
  };
}

function describe(error: unknown): string {
  const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues ?? [];
  const first = issues[0];
  if (!first) return 'does not match its schema';
  const at = first.path.map(String).join('.');
  return `${at === '' ? '' : `${at}: `}${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`;
}

const parseChain = versioned<ResolvedChain>(ResolvedChain);
const parsePolicy = versioned<PolicyFile>(PolicyFile);
const newerRelease = (version: unknown): string =>
  `was written by a release of Jig that stores version ${JSON.stringify(version)}`;

const parseWalk: Parser<Walk> = (raw) => {
  const version = raw && typeof raw === 'object' && 'v' in raw ? raw.v : undefined;
  if (version !== undefined && version !== WALK_VERSION) return { ok: false, error: newerRelease(version) };
  const r = StoredWalk.safeParse(raw);
  return r.success ? { ok: true, value: r.data } : { ok: false, error: describe(r.error) };
};

/**
 * Parsed chains and policies by item: the engine reads an item many times a second while it runs,
 * and its frozen chain (tens of kilobytes) changes only when it is frozen or revised. The text is
 * the key, so any change is a miss.
 */
const cache = new Map<string, { text: string; value: unknown }>();
const CACHE_MAX = 256;

function cached<T>(key: string, text: string, parse: Parser<T>): ReturnType<Parser<T>> {
  const hit = cache.get(key);
  if (hit && hit.text === text) return { ok: true, value: hit.value as T };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: 'is not JSON' };
  }
  const r = parse(raw);
  if (r.ok) {
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, { text, value: r.value });
  }
  return r;
}

/** Parses the three columns of one row (null or absent columns read as null). */
export function readFrozen(
  id: string,
  cols: { chain_definition?: string | null; policy_snapshot?: string | null; walk?: string | null },
): FrozenState {
  const errors: string[] = [];
  const one = <T>(
    name: string,
    text: string | null | undefined,
    parse: Parser<T>,
    key: string | null,
  ): T | null => {
    if (text === null || text === undefined) return null;
    const r = key === null ? parseJson(text, parse) : cached(key, text, parse);
    if (r.ok) return r.value;
    errors.push(`${name} ${r.error}`);
    return null;
  };
  return {
    chain_definition: one('the frozen chain', cols.chain_definition, parseChain, `chain:${id}`),
    policy_snapshot: one('the frozen policy', cols.policy_snapshot, parsePolicy, `policy:${id}`),
    walk: one('the walk', cols.walk, parseWalk, null),
    state_error: errors.length > 0 ? errors.join('; ') : null,
  };
}

function parseJson<T>(text: string, parse: Parser<T>): ReturnType<Parser<T>> {
  try {
    return parse(JSON.parse(text));
  } catch {
    return { ok: false, error: 'is not JSON' };
  }
}

/** The frozen chain and policy as stored: with their version. */
export function writeFrozen(value: ResolvedChain | PolicyFile): string {
  return JSON.stringify({ v: FROZEN_VERSION, ...value });
}
