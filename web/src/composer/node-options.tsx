import type { ModelNode } from '../../../src/contract/config/chain-model.js';
import { agentsOf, noSkipReason, type NodePlan } from './chain-nodes.js';
import { NODE_CAPS, type NodeCap, type NodeChoice } from './draft.js';

/** Each cap as a person reads it; the key is the policy name it sets (the field's title). */
const CAP_LABEL: Record<NodeCap, string> = {
  budget_usd: 'Budget (USD)',
  token_budget: 'Tokens',
  time_cap_minutes: 'Running time (min)',
  total_time_cap_minutes: 'Wall clock (min)',
  max_attempts: 'Fix attempts',
  timeout_minutes: 'Fix loop time (min)',
};
/** The fix loop's caps mean something on an exec node only. */
const EXEC_ONLY = new Set<NodeCap>(['max_attempts', 'timeout_minutes']);

/** Efforts the agent CLIs know; any other text is sent as typed, for the harness to take or refuse. */
export const EFFORTS = ['low', 'medium', 'high'] as const;

/** What the chain says of an agent's model, for the field's placeholder. */
const chainModel = (node: ModelNode): string => {
  const said = agentsOf(node).flatMap((t) =>
    t.model ? [t.model] : t.profile ? [`profile ${t.profile}`] : [],
  );
  const named = [...new Set(said)];
  return named.length > 0 ? named.join(', ') : "the harness's default";
};

/**
 * The inspector of one node of the new item's chain: skip it (or why it cannot be), the model and
 * effort of the agents it launches (`node_overrides`), and its caps (`policy_override`).
 */
export function NodeOptions({
  node,
  plan,
  choice,
  onChange,
}: {
  node: ModelNode;
  plan: NodePlan;
  choice: NodeChoice;
  onChange: (patch: Partial<NodeChoice>) => void;
}) {
  const why = noSkipReason(node);
  const agents = agentsOf(node);
  const caps = NODE_CAPS.filter((k) => node.kind === 'exec' || !EXEC_ONLY.has(k));
  return (
    <section className="inspector node-options" aria-label={`Options of ${node.id}`}>
      <h3>
        <code>{node.id}</code> <span className="muted small">{node.kind === 'gate' ? 'gate' : 'node'}</span>
      </h3>
      {node.description && <p className="muted small">{node.description}</p>}
      <label className="inline">
        <input
          type="checkbox"
          checked={choice.skip === true}
          disabled={why !== null}
          onChange={(e) => onChange({ skip: e.target.checked })}
        />
        Skip this node
      </label>
      {why && <p className="muted small">Cannot skip it: {why}.</p>}
      {plan.state === 'skipped' && plan.by === 'filing' && (
        <p className="muted small">The walk passes it anyway: {plan.reason}.</p>
      )}
      <fieldset>
        <legend>Agents</legend>
        {agents.length === 0 ? (
          <p className="muted small">It launches no agent: there is no model to choose.</p>
        ) : (
          <>
            <p className="muted small">
              {agents.map((a) => a.id).join(', ')}: {chainModel(node)} unless set here
            </p>
            <label>
              Model
              <input
                value={choice.model ?? ''}
                placeholder={chainModel(node)}
                spellCheck={false}
                onChange={(e) => onChange({ model: e.target.value })}
              />
            </label>
            <label>
              Effort
              <input
                value={choice.effort ?? ''}
                list="composer-efforts"
                onChange={(e) => onChange({ effort: e.target.value })}
              />
            </label>
          </>
        )}
      </fieldset>
      <fieldset className="caps">
        <legend>Caps</legend>
        {caps.map((k) => (
          <label key={k} title={k}>
            {CAP_LABEL[k]}
            <input
              type="number"
              min={0}
              step={k === 'token_budget' || k === 'max_attempts' ? 1 : 'any'}
              value={choice.caps?.[k] ?? ''}
              placeholder="chain's"
              onChange={(e) => onChange({ caps: { ...choice.caps, [k]: e.target.value } })}
            />
          </label>
        ))}
      </fieldset>
    </section>
  );
}

/** The effort suggestions every effort field offers (one list in the page). */
export function EffortList() {
  return (
    <datalist id="composer-efforts">
      {EFFORTS.map((e) => (
        <option key={e} value={e} />
      ))}
    </datalist>
  );
}
