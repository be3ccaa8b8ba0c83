import type { HarnessesFile } from '../../contract/config/harnesses.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { Problem } from '../../contract/problems.js';
import { launchesOf } from '../chain/launches.js';
import { walkChain } from '../chain/walk.js';
import { locate, type ANode } from '../config/tree.js';
import { own } from '../json/own.js';
import { chainScopes, type Scope } from './scopes.js';

interface ChainInput {
  id: string;
  checked: unknown;
  tree: ANode;
}

/** A cap's value in one scope: the scope's own, else policy.yaml's default for its level. */
function capOf(s: Scope, policy: PolicyFile | null, cap: string): number | null {
  const mine = s.policy?.[cap];
  if (typeof mine === 'number') return mine;
  const dflt: unknown = own(policy?.defaults?.[s.level], cap);
  return typeof dflt === 'number' ? dflt : null;
}

/** The first dollar cap over a task (its scope or one enclosing it), and whether any time cap bounds it. */
function capsOver(task: Scope, policy: PolicyFile | null): { usd: string | null; timed: boolean } {
  let usd: string | null = null;
  let timed = false;
  for (let s: Scope | null = task; s; s = s.parent) {
    const v = capOf(s, policy, 'budget_usd');
    if (usd === null && v !== null) usd = `budget_usd ${v} at \`${s.path || 'the chain'}\``;
    if (capOf(s, policy, 'time_cap_minutes') !== null || capOf(s, policy, 'total_time_cap_minutes') !== null)
      timed = true;
  }
  const item = policy?.budget?.work_item_usd;
  if (usd === null && item !== undefined) usd = `policy.yaml budget.work_item_usd ${item}`;
  return { usd, timed };
}

/**
 * A dollar cap must be able to stop what it caps. A harness whose CLI tells neither tokens nor cost
 * (its provider's `usage_reported: none`) spends unseen, so an agent task that can launch on one
 * (its own harness or a fallback) under a dollar cap is refused at load unless a time cap bounds it
 * or the harness counts a `launch_usd` per launch (issue 49; docs/harnesses.md "Pricing").
 */
export function unmeteredCapProblems(
  chain: ChainInput,
  policy: PolicyFile | null,
  harnesses: HarnessesFile | null,
  unmetered: ReadonlySet<string>,
): Problem[] {
  if (!harnesses || unmetered.size === 0) return [];
  const scopes = new Map(chainScopes(chain.checked).map((s) => [s.path, s]));
  const problems: Problem[] = [];
  for (const v of walkChain(chain.checked)) {
    const scope = scopes.get(v.path);
    if (v.kind !== 'task' || v.value.kind !== 'agent' || !scope) continue;
    const caps = capsOver(scope, policy);
    if (caps.usd === null || caps.timed) continue;
    for (const l of launchesOf(v.value, harnesses.profiles)) {
      const entry = own(harnesses.harnesses, l.harness);
      if (!entry || !unmetered.has(entry.provider) || entry.launch_usd !== undefined) continue;
      const field = l.field ?? [];
      problems.push({
        path: v.path,
        field: field.length ? field.join('.') : 'harness',
        message:
          `chain \`${chain.id}\`: task \`${v.path}\` can run on harness \`${l.harness}\`, whose CLI reports ` +
          `no usage (provider \`${entry.provider}\`: usage_reported none), under ${caps.usd} with no time ` +
          `cap, so the cap could not stop it: set a time_cap_minutes, or the harness's launch_usd in harnesses.yaml`,
        ...locate(
          chain.tree,
          [...v.dataPath, ...(field.length ? field : [])],
          field.length ? 'value' : 'key',
        ),
      });
    }
  }
  return problems;
}
