import { ACCESS_STATES, type AccessState, type HarnessOpOf } from '../../../contract/drafts/harness-ops.js';
import { isObj, OpRefused, type Obj } from '../ops/context.js';
import type { SettingsDocs } from './docs.js';
import {
  BOUNDS,
  POLICY_FILE,
  fileMap,
  harnessesOf,
  pruneEmpty,
  section,
  type Bound,
} from './harness-docs.js';

/*
 * The harnesses ops that write policy.yaml: a harness's access state, the tool ceiling and the
 * escalation launch.
 */

const isState = (s: string): s is AccessState => (ACCESS_STATES as readonly string[]).includes(s);

/**
 * The `allowed_harnesses` list of one block as it stands: null when absent; refused when the file
 * holds something other than a list there (the op would have to guess what it meant).
 */
function listOf(policy: Obj, bound: Bound): string[] | null {
  const block = policy[bound];
  if (block === undefined || block === null) return null;
  if (!isObj(block)) throw new OpRefused(`${POLICY_FILE} \`${bound}\` is not a mapping`);
  const list = block.allowed_harnesses;
  if (list === undefined || list === null) return null;
  if (!Array.isArray(list))
    throw new OpRefused(`${POLICY_FILE} \`${bound}.allowed_harnesses\` is not a list`);
  return list.filter((x): x is string => typeof x === 'string');
}

/**
 * Moves a harness to a state by rewriting the two `allowed_harnesses` lists (available: in
 * `defaults` and `maxima`; override: only in `maxima`; never: in neither; an absent list is no
 * bound). The rule, per list:
 * - a list that exists gains the harness when the state puts it there and loses it otherwise
 *   (added at the end, never twice; other entries, unknown ids included, are left alone);
 * - an absent list stays absent while the state puts the harness in it (no bound already does);
 * - an absent list the state leaves the harness out of is created holding what it admitted
 *   before, minus the harness: for `maxima` every harness of harnesses.yaml; for `defaults`
 *   (which, absent, admits what the maxima admit) the maxima's harnesses, else every harness.
 * So no other harness changes state, a state already held is a no-op once both lists say it, and
 * `never` with no lists writes both lists holding every other harness.
 */
export function setAccess(docs: SettingsDocs, op: HarnessOpOf<'set_access'>): undefined {
  const all = Object.keys(harnessesOf(docs));
  if (!all.includes(op.harness)) throw new OpRefused(`harness \`${op.harness}\` is not in harnesses.yaml`);
  if (!isState(op.state)) {
    throw new OpRefused(
      `state \`${op.state}\` is not one of ${ACCESS_STATES.map((s) => `\`${s}\``).join(', ')}`,
    );
  }
  const policy = fileMap(docs, POLICY_FILE);
  const before = { defaults: listOf(policy, 'defaults'), maxima: listOf(policy, 'maxima') };
  const wants: Record<Bound, boolean> = {
    defaults: op.state === 'available',
    maxima: op.state !== 'never',
  };
  const known = (ids: readonly string[]) => ids.filter((id) => all.includes(id) && id !== op.harness);
  const admitted: Record<Bound, string[]> = {
    maxima: known(all),
    defaults: known(before.maxima ?? all),
  };
  for (const bound of BOUNDS) {
    const list = before[bound];
    let next: string[] | null;
    if (list === null) next = wants[bound] ? null : admitted[bound];
    else if (wants[bound]) next = list.includes(op.harness) ? null : [...list, op.harness];
    else next = list.includes(op.harness) ? list.filter((h) => h !== op.harness) : null;
    if (next !== null) section(policy, bound, POLICY_FILE).allowed_harnesses = next;
  }
  return undefined;
}

/** `maxima.allowed_tools`: the tools agents may use at all; null removes the ceiling. */
export function setAllowedTools(docs: SettingsDocs, op: HarnessOpOf<'set_allowed_tools'>): undefined {
  const policy = fileMap(docs, POLICY_FILE);
  const maxima = section(policy, 'maxima', POLICY_FILE);
  if (op.tools === null) delete maxima.allowed_tools;
  else maxima.allowed_tools = [...op.tools];
  pruneEmpty(policy, 'maxima');
  return undefined;
}

/**
 * `defaults.escalation_harness` and `defaults.escalation_grants`; null removes each (escalation
 * then runs on the default harness with the default grants). A harness id that is not in
 * harnesses.yaml is left to the policy checks as a problem, as a PUT would have it.
 */
export function setEscalation(docs: SettingsDocs, op: HarnessOpOf<'set_escalation'>): undefined {
  const policy = fileMap(docs, POLICY_FILE);
  const defaults = section(policy, 'defaults', POLICY_FILE);
  if (op.harness === null) delete defaults.escalation_harness;
  else defaults.escalation_harness = op.harness;
  if (op.grants === null) delete defaults.escalation_grants;
  else defaults.escalation_grants = [...op.grants];
  pruneEmpty(policy, 'defaults');
  return undefined;
}
