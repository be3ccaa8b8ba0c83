import { useState } from 'react';
import type { ModelNode } from '../../../../src/contract/config/chain-model.js';
import type { ItemDraftOp } from '../../../../src/contract/items/draft.js';

/** What an override may set: a retry's agent settings, and caps (drafts.md "Ops"). */
const TASK_KEYS = ['model', 'effort', 'harness'] as const;
const POLICY_KEYS = [
  'budget_usd',
  'token_budget',
  'time_cap_minutes',
  'max_attempts',
  'timeout_minutes',
] as const;
const NUMERIC = new Set<string>(POLICY_KEYS);
const EMPTY: Record<string, string> = {};

/**
 * One node of the drafted chain: what it runs, and — when the item has not reached it — Remove,
 * Skip for its steps and tasks, and Override for the model, effort or harness of its agents and its caps.
 */
export function NodeEdits({
  node,
  editable,
  onOp,
}: {
  node: ModelNode;
  editable: boolean;
  onOp: (op: ItemDraftOp) => Promise<boolean>;
}) {
  const [overriding, setOverriding] = useState(false);
  const [fields, setFields] = useState(EMPTY);
  const override = async () => {
    const filled = (keys: readonly string[]) =>
      Object.fromEntries(
        keys.flatMap((k) => {
          const v = fields[k]?.trim() ?? '';
          return v === '' ? [] : [[k, NUMERIC.has(k) ? Number(v) : v]];
        }),
      );
    const task_config = filled(TASK_KEYS);
    const policy = filled(POLICY_KEYS);
    const op: ItemDraftOp = {
      op: 'override',
      path: node.path,
      ...(Object.keys(task_config).length > 0 ? { task_config } : {}),
      ...(Object.keys(policy).length > 0 ? { policy } : {}),
    };
    if (await onOp(op)) {
      setOverriding(false);
      setFields(EMPTY);
    }
  };
  return (
    <li className={`draft-node${editable ? '' : ' draft-reached'}`} aria-label={`node ${node.id}`}>
      <div className="draft-node-head">
        <code>{node.id}</code> <span className="muted small">{node.kind}</span>
        {!editable && <span className="muted small"> · reached, not editable</span>}
        {editable && node.kind === 'exec' && (
          <span className="draft-node-actions">
            <button type="button" className="link" onClick={() => setOverriding((o) => !o)}>
              Override {node.id}…
            </button>
            <button
              type="button"
              className="link"
              onClick={() => void onOp({ op: 'remove_node', node: node.id })}
            >
              Remove {node.id}
            </button>
          </span>
        )}
      </div>
      {node.kind === 'exec' && (
        <ul className="draft-scopes">
          {node.steps.map((s) => (
            <li key={s.path}>
              {s.id !== 'main' && (
                <span>
                  step <code>{s.id}</code>{' '}
                  {editable && (
                    <button
                      type="button"
                      className="link"
                      onClick={() => void onOp({ op: 'skip', path: s.path })}
                    >
                      Skip {s.path}
                    </button>
                  )}
                </span>
              )}
              <ul>
                {s.tasks.map((t) => (
                  <li key={t.path}>
                    <code>{t.id}</code> <span className="muted small">{t.kind}</span>{' '}
                    {editable && (
                      <button
                        type="button"
                        className="link"
                        onClick={() => void onOp({ op: 'skip', path: t.path })}
                      >
                        Skip {t.path}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      {overriding && (
        <form
          className="inline-dialog"
          aria-label={`Override ${node.id}`}
          onSubmit={(e) => {
            e.preventDefault();
            void override();
          }}
        >
          {[...TASK_KEYS, ...POLICY_KEYS].map((k) => (
            <label key={k}>
              {k}{' '}
              <input
                type={NUMERIC.has(k) ? 'number' : 'text'}
                min={0}
                step="any"
                value={fields[k] ?? ''}
                onChange={(e) => setFields({ ...fields, [k]: e.target.value })}
              />
            </label>
          ))}
          <button type="submit">Add override</button>
        </form>
      )}
    </li>
  );
}
