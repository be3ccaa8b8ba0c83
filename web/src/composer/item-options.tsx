import type { ComposerState } from './use-composer.js';

const usd = (n: number) => `$${n.toFixed(2)}`;

/** The cap the item would run under, as the dry run computed it: the lower of its own and policy's. */
function capLine(c: ComposerState): string {
  const cap = c.dry?.run?.would_file.budget_cap;
  if (!cap) return '';
  if (cap.cap_usd === null) return 'No dollar cap: neither the item nor policy sets one.';
  return cap.key === 'item'
    ? `It runs under ${usd(cap.cap_usd)}, its own cap.`
    : `It runs under ${usd(cap.cap_usd)}, policy's cap${c.d.budget.trim() ? ' (the lower one)' : ''}.`;
}

/**
 * What holds for the whole item: its own dollar cap, the model and effort of every agent
 * (`agent_overrides`; a node's own choice wins), whether a reviewer agent decides at gates first,
 * and the branch it starts from.
 */
export function ItemOptions({ c }: { c: ComposerState }) {
  const { d, set } = c;
  return (
    <>
      <fieldset className="item-options">
        <legend>Policy and budget</legend>
        <label>
          Budget (USD)
          <input
            type="number"
            min={0}
            step="any"
            value={d.budget}
            placeholder="policy's cap"
            onChange={(e) => set('budget', e.target.value)}
          />
        </label>
        <p className="muted small" aria-live="polite">
          {capLine(c)}
        </p>
        <label>
          Reviewer agent at gates
          <select
            value={d.autoGate === null ? '' : d.autoGate ? 'on' : 'off'}
            onChange={(e) => set('autoGate', e.target.value === '' ? null : e.target.value === 'on')}
          >
            <option value="">default (decides first)</option>
            <option value="on">decides first</option>
            <option value="off">off: a person decides</option>
          </select>
        </label>
        <label>
          Base branch
          <input
            value={d.baseBranch}
            placeholder="the repository's default"
            spellCheck={false}
            onChange={(e) => set('baseBranch', e.target.value)}
          />
        </label>
      </fieldset>
      <fieldset className="item-options">
        <legend>Every agent</legend>
        <label>
          Model
          <input
            value={d.model}
            placeholder="as the chain says"
            spellCheck={false}
            onChange={(e) => set('model', e.target.value)}
          />
        </label>
        <label>
          Effort
          <input value={d.effort} list="composer-efforts" onChange={(e) => set('effort', e.target.value)} />
        </label>
      </fieldset>
    </>
  );
}
