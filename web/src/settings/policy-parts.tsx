import { FieldProblems, Source, type Problem } from './draft.js';
import { CheckField, NumberField } from './field.js';
import {
  capKey,
  fieldsOf,
  SEVERITIES,
  toggleSeverity,
  type PolicyField,
  type PolicySection,
} from './policy-fields.js';
import { CapsGrid } from './caps-grid.js';
import { CAP_LABEL, LEVELS, LEVEL_LABEL, type PolicyResolved } from './policy-types.js';
import type { SetValue } from './use-policy.js';

/*
 * The pieces Settings › Policy is drawn from: a field of POLICY_FIELDS, a section of them, the
 * caps grid and the finding severities.
 */

interface Parts {
  r: PolicyResolved;
  at: (key: string) => Problem[];
  set: SetValue;
  busy: boolean;
}

/** One field of the table, as its kind draws it. */
export function PolicyFieldView({ f, r, at, set, busy }: Parts & { f: PolicyField }) {
  if (f.kind === 'check') {
    const v = f.read(r);
    return (
      <CheckField
        label={f.label}
        value={v.value}
        source={v.source}
        problems={at(f.key)}
        onSave={set(f.scope, f.key)}
      />
    );
  }
  const v = f.read(r);
  return (
    <NumberField
      label={f.label}
      value={v.value}
      source={v.source}
      problems={at(f.key)}
      unset={f.unset ?? 'not set'}
      disabled={busy}
      onSave={set(f.scope, f.key)}
    />
  );
}

/** The fields of one section, in the table's order. */
export function PolicyFields({ section, ...parts }: Parts & { section: PolicySection }) {
  return (
    <div className="fields">
      {fieldsOf(section).map((f) => (
        <PolicyFieldView key={f.key} f={f} {...parts} />
      ))}
    </div>
  );
}

/** Each level's default and maximum per cap, and how many scopes of the chains set it. */
export function CapsTable({ r, at, set, busy }: Parts) {
  return (
    <CapsGrid
      className="caps"
      corner="Level"
      rows={LEVELS}
      rowKey={(level) => level}
      head={(level) => LEVEL_LABEL[level]}
      cell={(level, cap) => {
        const row = r.limits.caps[level][cap];
        const over = row.below.filter((b) => b.exceeds);
        return (
          <td>
            <NumberField
              label={`${LEVEL_LABEL[level]} ${CAP_LABEL[cap]} default`}
              short="default"
              value={row.default.value}
              problems={at(capKey('defaults', level, cap))}
              unset="none"
              disabled={busy}
              onSave={set('limits', capKey('defaults', level, cap))}
            />
            <NumberField
              label={`${LEVEL_LABEL[level]} ${CAP_LABEL[cap]} maximum`}
              short="max"
              value={row.maximum.value}
              problems={at(capKey('maxima', level, cap))}
              unset="no bound"
              disabled={busy}
              onSave={set('limits', capKey('maxima', level, cap))}
            />
            {row.below.length > 0 && (
              <p
                className={`small ${over.length > 0 ? 'warn' : 'muted'}`}
                title={row.below.map((b) => `${b.chain}: ${b.path} = ${b.value}`).join('\n')}
              >
                {row.below.length} {row.below.length === 1 ? 'scope sets' : 'scopes set'} it
                {over.length > 0 ? `, ${over.length} past the maximum` : ''}
              </p>
            )}
          </td>
        );
      }}
    />
  );
}

/** The finding severities that start a fix loop, one box each. */
export function Severities({ r, at, set, busy }: Parts) {
  const now = r.findings.loop_severities.value;
  const save = set('findings', 'findings.loop_severities');
  return (
    <fieldset className="severities">
      <legend>
        Findings that start a fix loop <Source source={r.findings.loop_severities.source} />
      </legend>
      {SEVERITIES.map((sev) => (
        <label key={sev} className="check">
          <input
            type="checkbox"
            checked={now.includes(sev)}
            disabled={busy}
            onChange={(e) => void save(toggleSeverity(now, sev, e.target.checked))}
          />
          {sev}
        </label>
      ))}
      <FieldProblems problems={at('findings.loop_severities')} />
    </fieldset>
  );
}
