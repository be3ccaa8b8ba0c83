import type { ChainOpOf } from '../../../contract/drafts/chain-ops.js';
import { checkNewId, checkPosition, idsOf, isObj, OpRefused, type Obj, type OpDocs } from './context.js';
import { replaceKey } from './fragment.js';
import { checkStepContainer, heldSteps, locateIn, ownSteps, stepIds, target } from './structure.js';

/*
 * `add_node` and `add_step` (spec drafts.md, "Chain and library ops").
 *
 * A new exec node is `{id, kind: exec}`: it has no step yet, which the result object shows as a
 * problem until one is added. A new step is `{id, tasks: []}`, an empty list the editor fills
 * (also a problem until it holds a task).
 */

const NODE_KINDS = ['exec', 'gate'];

export function addNode(docs: OpDocs, op: ChainOpOf<'add_node'>): undefined {
  const chain = docs.doc(docs.chainFile());
  if (!isObj(chain)) throw new OpRefused('this draft has no chain to add a node to');
  if (chain.nodes !== undefined && chain.nodes !== null && !Array.isArray(chain.nodes)) {
    throw new OpRefused('the chain’s `nodes` is not a list: fix it before adding to it');
  }
  const nodes = Array.isArray(chain.nodes) ? chain.nodes : [];
  const id = checkNewId(op.id, idsOf(nodes), 'node id');
  if (!NODE_KINDS.includes(op.kind)) {
    throw new OpRefused(`kind \`${op.kind}\` is not a node kind: \`exec\` or \`gate\``);
  }
  const at = checkPosition(op.at, nodes.length, 'at', true);
  nodes.splice(at, 0, { id, kind: op.kind });
  chain.nodes = nodes;
  return undefined;
}

/**
 * The default id of a new step: `step_<n>`, n being the steps held plus one, counting up past an
 * id already taken (a container holding `step_2` alone gets `step_3`, not a second `step_2`).
 */
function defaultStepId(taken: readonly string[]): string {
  for (let n = taken.length + 1; ; n++) if (!taken.includes(`step_${n}`)) return `step_${n}`;
}

export function addStep(docs: OpDocs, op: ChainOpOf<'add_step'>): { path: string } {
  const t = target(docs);
  const l = locateIn(t, op.container);
  checkStepContainer(l, t.lib);
  const c = l.value;
  if (c.steps !== undefined && c.steps !== null && !Array.isArray(c.steps)) {
    throw new OpRefused(`\`${l.path}\` has \`steps\` that is not a list: fix it before adding to it`);
  }
  // Refusals first, on the steps the container will hold once the shorthand is renamed.
  const has = heldSteps(t, l);
  const held = stepIds(has).map((s) => (s === 'main' && !Array.isArray(has.steps) ? 'step_1' : s));
  const id = op.id === undefined ? defaultStepId(held) : checkNewId(op.id, held, 'step id');
  const at = checkPosition(op.at, held.length, 'at', true);

  ownSteps(t, l);
  if (Array.isArray(c.tasks) && !Array.isArray(c.steps)) {
    // The shorthand is one step `main`; beside another step it needs a real id.
    replaceKey(c, 'tasks', 'steps', [{ id: 'step_1', tasks: c.tasks }]);
  }
  const steps: unknown[] = Array.isArray(c.steps) ? c.steps : [];
  const step: Obj = { id, tasks: [] };
  steps.splice(at, 0, step);
  c.steps = steps;
  return { path: `${l.path}.${id}` };
}
