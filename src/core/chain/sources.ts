import type { PolicyFile } from '../../contract/config/policy.js';
import type { ScopePolicy } from '../../contract/config/scope-policy.js';
import { child, toPlain, type ANode, type PathSeg } from '../config/tree.js';
import { capScopes } from '../policy/caps.js';
import { loopLimits } from '../policy/loops.js';
import type { ChainLoad } from './load-chain.js';
import { walkChain, type Visit } from './walk.js';

export interface SourcedValue {
  value: unknown;
  /** `chain`, `library:<section>.<name>`, `policy` or `default`. */
  source: string;
  /** Set on a non-agent task's agent-only cap, listed because its on_failure recovery may run agents. */
  recovery?: true;
}
/** `{path: {field: {value, source}}}` as drafts.md "The result object" defines it. */
export type ChainSources = Record<string, Record<string, SourcedValue>>;

/** Keys holding child components: they get rows of their own. */
const CONTAINERS = new Set([
  'tasks',
  'steps',
  'on_failure',
  'fix_loop',
  'escalation',
  'auto_review',
  'judge',
  'on_conflict',
]);
/** Mappings listed leaf by leaf (`policy.budget_usd`, `wait.polling.max_interval`). */
const FLATTEN = new Set(['policy', 'wait', 'on_base_changed', 'polling']);
const AGENT_ONLY_CAPS = ['token_budget', 'budget_usd'];

/** What the model assumes when no layer sets a field. */
function defaults(v: Visit): Record<string, unknown> {
  const x = v.value;
  if (v.kind === 'node') {
    return x.kind === 'gate'
      ? { skippable: true, chain_finalized: false, artifact_required: x.chain_finalized === true }
      : { skippable: true, read_only: false };
  }
  if (v.kind === 'step') return { skippable: true, read_only: false };
  const base: Record<string, unknown> = { scope: 'once', skippable: true };
  if (x.kind === 'agent') Object.assign(base, { steering: [], inputs: [], fallback: [] });
  if (x.kind === 'builtin') base.execution = 'parallel';
  return base;
}

function flatten(node: ANode, prefix: string, out: Record<string, SourcedValue>): void {
  if (node.t !== 'map') return;
  for (const e of node.entries) {
    if (CONTAINERS.has(e.key)) continue;
    const field = prefix ? `${prefix}.${e.key}` : e.key;
    if (FLATTEN.has(e.key) && e.value.t === 'map') flatten(e.value, field, out);
    else
      out[field] = {
        value: toPlain(e.value),
        source: e.origin.source === 'file' ? 'chain' : e.origin.source,
      };
  }
}

function at(tree: ANode, path: readonly PathSeg[]): ANode | undefined {
  let n: ANode | undefined = tree;
  for (const seg of path) n = child(n, seg);
  return n;
}

/**
 * For each node, step, task and fix loop of a resolved chain: which layer set each field, and
 * each `policy.*` cap of its scope (the layer that set it, else `policy` at the value the scope
 * runs under). Non-agent tasks leave out steering and agent-only caps unless they set them; with
 * an on_failure recovery those caps are listed with `recovery: true`.
 */
export function chainSources(
  load: ChainLoad,
  policy: PolicyFile | null,
  repoPolicy?: ScopePolicy,
): ChainSources | null {
  if (!load.checked || !load.tree) return null;
  const out: ChainSources = {};
  const caps = new Map(
    capScopes({ id: load.id, checked: load.checked, tree: load.tree }, policy, repoPolicy).scopes.map((s) => [
      s.path,
      s,
    ]),
  );
  for (const v of walkChain(load.checked)) {
    const row: Record<string, SourcedValue> = {};
    if (v.synthetic) row.id = { value: 'main', source: 'default' };
    else {
      const n = at(load.tree, v.dataPath);
      if (n) flatten(n, '', row);
    }
    for (const [k, value] of Object.entries(defaults(v))) row[k] ??= { value, source: 'default' };
    const agent = v.kind !== 'task' || v.value.kind === 'agent';
    if (!agent && row.steering?.source === 'default') delete row.steering;
    const scope = caps.get(v.path);
    if (scope) {
      for (const [cap, c] of Object.entries(scope.caps)) {
        const field = `policy.${cap}`;
        if (row[field]) continue;
        if (!agent && AGENT_ONLY_CAPS.includes(cap)) {
          if (v.value.on_failure) row[field] = { value: c.value, source: 'policy', recovery: true };
          continue;
        }
        row[field] = { value: c.value, source: 'policy' };
      }
    }
    out[v.path] = row;
    if (v.kind === 'node' && v.value.fix_loop) {
      const loopRow: Record<string, SourcedValue> = {};
      const n = at(load.tree, [...v.dataPath, 'fix_loop']);
      if (n) flatten(n, '', loopRow);
      const limits = loopLimits(load.checked, String(v.value.id), policy);
      if (limits && !loopRow.max_attempts)
        loopRow.max_attempts = { value: limits.attempts.value, source: 'policy' };
      out[`${v.path}.fix_loop`] = loopRow;
    }
  }
  return out;
}
