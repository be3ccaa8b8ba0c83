import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { DraftProblem } from '../../../../src/contract/drafts/answers.js';
import { providersQuery } from '../../queries.js';
import { plural } from '../../words.js';
import type { Op } from '../../drafts/use-area-draft.js';
import { problemsAt, type HarnessesResolved, type ProfileRow } from './resolved.js';

/** One profile: the model and effort per provider, edited as one `set_profile`. */
function Profile({
  name,
  p,
  problems,
  send,
}: {
  name: string;
  p: ProfileRow;
  problems: readonly DraftProblem[];
  send: (ops: Op[]) => void;
}) {
  const [rows, setRows] = useState(
    Object.entries(p.providers).map(([provider, c]) => ({
      provider,
      model: c.model,
      effort: c.effort ?? '',
    })),
  );
  const edit = (i: number, key: 'model' | 'effort', v: string) =>
    setRows(rows.map((r, j) => (j === i ? { ...r, [key]: v } : r)));
  const save = () =>
    send([
      {
        op: 'set_profile',
        name,
        patch: {
          providers: Object.fromEntries(
            rows.map((r) => [
              r.provider,
              r.effort.trim() === '' ? { model: r.model } : { model: r.model, effort: r.effort },
            ]),
          ),
        },
      },
    ]);
  return (
    <section className="tpl-card" aria-labelledby={`profile-${name}`}>
      <h3 id={`profile-${name}`}>
        Profile <code>{name}</code>{' '}
        <span className="muted small">
          {plural(p.tasks.length, 'launch')}
          {p.used_by_fallback.length > 0 ? ` · fallback of ${p.used_by_fallback.join(', ')}` : ''}
        </span>
      </h3>
      <table className="tpl-table">
        <thead>
          <tr>
            <th>Provider</th>
            <th>Model</th>
            <th>Effort</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={r.provider}>
              <th scope="row">{r.provider}</th>
              <td>
                <input
                  aria-label={`${name} model for ${r.provider}`}
                  value={r.model}
                  onChange={(e) => edit(i, 'model', e.target.value)}
                />
              </td>
              <td>
                <input
                  aria-label={`${name} effort for ${r.provider}`}
                  value={r.effort}
                  onChange={(e) => edit(i, 'effort', e.target.value)}
                />
              </td>
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={3} className="muted">
                No provider yet: nothing can launch on this profile.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {problemsAt(problems, `profiles.${name}`).map((pr, i) => (
        <p key={i} className="field-problem" role="note">
          {pr.message}
        </p>
      ))}
      <div className="tpl-buttons">
        <button type="button" onClick={save}>
          Save {name}
        </button>
        <button type="button" className="danger" onClick={() => send([{ op: 'remove_profile', name }])}>
          Remove {name}
        </button>
      </div>
    </section>
  );
}

export function Profiles({
  r,
  problems,
  send,
}: {
  r: HarnessesResolved;
  problems: readonly DraftProblem[];
  send: (ops: Op[]) => void;
}) {
  const [name, setName] = useState('');
  const [from, setFrom] = useState('');
  const names = Object.keys(r.profiles);
  return (
    <section className="tpl-section" aria-labelledby="profiles-title">
      <h2 id="profiles-title">Profiles</h2>
      <p className="muted small">
        A task names a profile; the profile picks the model and effort for the provider it lands on.
      </p>
      {names.map((n) => {
        const p = r.profiles[n];
        // Keyed on its own values: another op elsewhere keeps this profile's unsaved edits.
        return p ? (
          <Profile key={`${n}:${JSON.stringify(p)}`} name={n} p={p} problems={problems} send={send} />
        ) : null;
      })}
      <form
        className="row-form"
        onSubmit={(e) => {
          e.preventDefault();
          send([{ op: 'add_profile', name, ...(from ? { copy_from: from } : {}) }]);
        }}
      >
        <label>
          New profile name
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label>
          Copy from
          <select value={from} onChange={(e) => setFrom(e.target.value)}>
            <option value="">nothing</option>
            {names.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        <button type="submit">+ Profile</button>
      </form>
    </section>
  );
}

/** The providers Jig knows and what each CLI can take. */
export function Providers() {
  const providers = useQuery(providersQuery());
  if (providers.error) return <p role="alert">{providers.error.message}</p>;
  return (
    <section className="tpl-section" aria-labelledby="providers-title">
      <h2 id="providers-title">Providers</h2>
      <div className="scroll-x">
        <table className="tpl-table">
          <thead>
            <tr>
              <th>Provider</th>
              <th>Command</th>
              <th>Takes</th>
              <th>Checked with</th>
            </tr>
          </thead>
          <tbody>
            {(providers.data?.providers ?? []).map((p) => {
              const c = p.capabilities;
              const takes = [
                c.model && 'model',
                c.effort && 'effort',
                c.permission_mode && 'permission mode',
                c.allowed_tools && 'allowed tools',
                c.denied_tools && 'denied tools',
                c.permission_prompt && 'permission prompt',
                c.resume && 'resume',
              ].filter((x): x is string => typeof x === 'string');
              return (
                <tr key={p.id}>
                  <th scope="row">
                    {p.display_name} <span className="muted small">{p.id}</span>
                  </th>
                  <td>
                    <code>{p.command.join(' ')}</code>
                  </td>
                  <td className="small">
                    {takes.join(', ') || 'none'}; system prompt {c.system_prompt}
                  </td>
                  <td className="small">
                    {p.verified_with
                      ? `${p.verified_with.package}@${p.verified_with.version}`
                      : 'not checked'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
