import { POLICY_LEVELS, type PolicyFile, type PolicyLevel } from '../../../contract/config/policy.js';
import { CAP_KEYS, type CapKey } from '../../../contract/config/scope-policy.js';
import type { DraftProblem } from '../../../contract/drafts/answers.js';
import type { ChainLoad } from '../../chain/load-chain.js';
import { locate, type ANode, type PathSeg } from '../../config/tree.js';
import { capScopes } from '../../policy/caps.js';
import { POLICY_FILE } from './policy-ops.js';

/*
 * The `limits` group of the policy draft's resolved answer (spec drafts.md, "Resolved answer for
 * policy"): the caps per level, the budgets and the fix-loop bounds, and every chain scope that sets
 * a cap itself, so the Policy screen shows what a new maximum would cut into.
 */

/** A value of policy.yaml: written in the file, or the value the file's schema assumes. */
export interface PolicyValue<T> {
  value: T;
  source: 'policy' | 'default';
}

/** A cap as `defaults.<level>` or `maxima.<level>` sets it (`source` is that level), or unset. */
export type LevelValue = { value: number; source: PolicyLevel } | { value: null; source: null };

export interface CapBelow {
  /** `chain`: the chain file sets it; `library`: a library component it extends (`via`). */
  layer: 'chain' | 'library';
  chain: string;
  /** The scope's canonical path; the chain's id for the chain itself. */
  path: string;
  /** The library component (`tasks.implementer`) for the library layer, else null. */
  via: string | null;
  value: number;
  /** Whether the value is past the draft's `maxima.<level>.<cap>`. */
  exceeds: boolean;
}

export interface CapLimits {
  default: LevelValue;
  maximum: LevelValue;
  below: CapBelow[];
}

export interface PolicyLimits {
  caps: Record<PolicyLevel, Record<CapKey, CapLimits>>;
  work_item_usd: PolicyValue<number | null> & { binding: { key: string; value: number } | null };
  daily_usd: PolicyValue<number | null>;
  max_attempts: { default: PolicyValue<number | null>; maximum: PolicyValue<number | null> };
  timeout_minutes: { default: PolicyValue<number | null>; maximum: PolicyValue<number | null> };
}

const sourced = <T>(value: T | undefined, fallback: T): PolicyValue<T> =>
  value === undefined ? { value: fallback, source: 'default' } : { value, source: 'policy' };

/**
 * A level's own cap in `defaults` or `maxima`. A broader level's cap is not carried down: the
 * checks a save runs bound a scope by its own level's maximum and by its enclosing scope's value.
 */
function levelValue(
  block: PolicyFile['defaults'] | PolicyFile['maxima'],
  level: PolicyLevel,
  cap: CapKey,
): LevelValue {
  const v = block?.[level]?.[cap];
  return v === undefined ? { value: null, source: null } : { value: v, source: level };
}

/** Every scope of the loaded chains that sets a cap itself, per level and cap. */
function capsBelow(chains: readonly ChainLoad[], policy: PolicyFile): Map<string, CapBelow[]> {
  const out = new Map<string, CapBelow[]>();
  for (const c of chains) {
    if (!c.checked || !c.tree) continue;
    // Sources only: which layer wrote each cap does not depend on the policy.
    for (const s of capScopes({ id: c.id, checked: c.checked, tree: c.tree }, null).scopes) {
      for (const cap of CAP_KEYS) {
        const { value, source } = s.caps[cap];
        if (value === null || (source !== 'chain' && !source.startsWith('library:'))) continue;
        const max = policy.maxima?.[s.level]?.[cap];
        const row: CapBelow = {
          layer: source === 'chain' ? 'chain' : 'library',
          chain: c.id,
          path: s.path,
          via: source === 'chain' ? null : source.slice('library:'.length),
          value,
          exceeds: max !== undefined && value > max,
        };
        const key = `${s.level}.${cap}`;
        out.set(key, [...(out.get(key) ?? []), row]);
      }
    }
  }
  return out;
}

/** The lowest of the keys bounding one item's spend, and which key it is. */
function binding(policy: PolicyFile): { key: string; value: number } | null {
  const candidates: [string, number | undefined][] = [
    ['budget.work_item_usd', policy.budget?.work_item_usd],
    ['maxima.work_item.budget_usd', policy.maxima?.work_item?.budget_usd],
    ['defaults.work_item.budget_usd', policy.defaults?.work_item?.budget_usd],
  ];
  let low: { key: string; value: number } | null = null;
  for (const [key, value] of candidates) {
    if (value !== undefined && (low === null || value < low.value)) low = { key, value };
  }
  return low;
}

export function policyLimits(policy: PolicyFile, chains: readonly ChainLoad[]): PolicyLimits {
  const below = capsBelow(chains, policy);
  const caps = Object.fromEntries(
    POLICY_LEVELS.map((level) => [
      level,
      Object.fromEntries(
        CAP_KEYS.map((cap) => [
          cap,
          {
            default: levelValue(policy.defaults, level, cap),
            maximum: levelValue(policy.maxima, level, cap),
            below: below.get(`${level}.${cap}`) ?? [],
          },
        ]),
      ),
    ]),
  ) as PolicyLimits['caps'];
  const opt = <K extends 'max_attempts' | 'timeout_minutes'>(k: K) => ({
    default: sourced<number | null>(policy.defaults?.[k], null),
    maximum: sourced<number | null>(policy.maxima?.[k], null),
  });
  return {
    caps,
    work_item_usd: {
      ...sourced<number | null>(policy.budget?.work_item_usd, null),
      binding: binding(policy),
    },
    daily_usd: sourced<number | null>(policy.budget?.daily_usd, null),
    max_attempts: opt('max_attempts'),
    timeout_minutes: opt('timeout_minutes'),
  };
}

const where = (tree: ANode | null, path: PathSeg[]) =>
  tree ? { ...locate(tree, path, 'value'), file: POLICY_FILE } : { file: POLICY_FILE, line: null, col: null };

/**
 * The limits the chains already exceed, each naming the chain: a scope past `maxima.<level>.<cap>`,
 * and a scope past the `defaults.<level>.<cap>` its enclosing scope runs under (a child may
 * tighten, never relax, so a default is a limit for what runs inside).
 */
export function exceededProblems(
  limits: PolicyLimits,
  policy: PolicyFile,
  chains: readonly ChainLoad[],
  tree: ANode | null,
): DraftProblem[] {
  const out: DraftProblem[] = [];
  for (const level of POLICY_LEVELS) {
    for (const cap of CAP_KEYS) {
      const { maximum, below } = limits.caps[level][cap];
      for (const b of below) {
        if (!b.exceeds) continue;
        const from = b.via ? ` (from library \`${b.via}\`)` : '';
        out.push({
          path: `maxima.${level}`,
          field: cap,
          message: `chain \`${b.chain}\`: \`${b.path}\` sets ${cap} ${b.value}${from}, past maxima.${level}.${cap} ${maximum.value}`,
          ...where(tree, ['maxima', level, cap]),
          scope: 'limits',
          level,
          chain: b.chain,
        });
      }
    }
  }
  for (const c of chains) {
    if (!c.checked || !c.tree) continue;
    const scopes = capScopes({ id: c.id, checked: c.checked, tree: c.tree }, policy).scopes;
    for (const s of scopes) {
      for (const cap of CAP_KEYS) {
        const { value, source, maximum } = s.caps[cap];
        if (value === null || !maximum || value <= maximum.value) continue;
        if (source !== 'chain' && !source.startsWith('library:')) continue;
        // The bound is a scope's value (`chain` for the chain itself) when it is not a maximum.
        const up = maximum.level === 'chain' ? scopes[0] : scopes.find((x) => x.path === maximum.level);
        if (!up || up.caps[cap].source !== 'policy') continue;
        out.push({
          path: `defaults.${up.level}`,
          field: cap,
          message: `chain \`${c.id}\`: \`${s.path}\` sets ${cap} ${value}, past defaults.${up.level}.${cap} ${maximum.value} that \`${up.path}\` runs under`,
          ...where(tree, ['defaults', up.level, cap]),
          scope: 'limits',
          level: up.level,
          chain: c.id,
        });
      }
    }
  }
  return out;
}
