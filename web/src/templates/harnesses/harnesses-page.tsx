import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type { DraftProblem } from '../../../../src/contract/drafts/answers.js';
import type { HarnessesAnswer } from '../../../../src/contract/harnesses-route.js';
import { DraftBar } from '../../drafts/draft-bar.js';
import { useAreaDraft, type Op } from '../../drafts/use-area-draft.js';
import { harnessesQuery, reposQuery } from '../../queries.js';
import { plural } from '../../words.js';
import '../library/templates.css';
import { Profiles, Providers } from './profiles.js';
import {
  ACCESS,
  isHarnessesResolved,
  problemsAt,
  type HarnessRow,
  type HarnessesResolved,
} from './resolved.js';

/*
 * Harnesses: each agent CLI with whether it is installed here (the harnesses route), and what
 * harnesses.yaml and policy.yaml say of it, edited through the `harnesses` draft: every change is
 * an op, shown with its problems at once, and reaches the running Jig only on publish.
 */

type Availability = z.infer<typeof HarnessesAnswer>['harnesses'][number];

function FieldProblems({ ps }: { ps: readonly DraftProblem[] }) {
  if (ps.length === 0) return null;
  return (
    <>
      {ps.map((p, i) => (
        <p key={i} className="field-problem" role="note">
          {p.message}
        </p>
      ))}
    </>
  );
}

function HarnessLine({
  h,
  found,
  problems,
  send,
}: {
  h: HarnessRow;
  found: Availability | undefined;
  problems: readonly DraftProblem[];
  send: (ops: Op[]) => void;
}) {
  const [exe, setExe] = useState(h.executable ?? '');
  const defaults = Object.entries(h.defaults)
    .map(([k, v]) => `${k}: ${v ?? ''}`)
    .join(', ');
  return (
    <tr>
      <th scope="row">
        <code>{h.id}</code>
        <div className="muted small">{h.provider}</div>
      </th>
      <td>
        {found?.installed ? (
          <>
            <span className="chip">installed</span>{' '}
            <span className="small">{found.version ?? 'no version'}</span>
            <div className="muted small">
              <code>{found.path}</code>
            </div>
          </>
        ) : (
          <span className="chip chip-warn">not installed</span>
        )}
        {found?.verified_with && <div className="muted small">checked with {found.verified_with}</div>}
      </td>
      <td>
        <select
          aria-label={`Access of ${h.id}`}
          value={h.state}
          onChange={(e) => send([{ op: 'set_access', harness: h.id, state: e.target.value }])}
        >
          {ACCESS.map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
      </td>
      <td>
        <input
          type="checkbox"
          aria-label={`${h.id} enabled`}
          checked={h.enabled}
          onChange={(e) => send([{ op: 'set_harness', id: h.id, patch: { enabled: e.target.checked } }])}
        />
      </td>
      <td>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send([{ op: 'set_harness', id: h.id, patch: { executable: exe.trim() === '' ? null : exe } }]);
          }}
        >
          <input
            aria-label={`Executable of ${h.id}`}
            value={exe}
            placeholder="the provider's command"
            onChange={(e) => setExe(e.target.value)}
            onBlur={() => {
              if (exe !== (h.executable ?? ''))
                send([
                  { op: 'set_harness', id: h.id, patch: { executable: exe.trim() === '' ? null : exe } },
                ]);
            }}
          />
        </form>
        {defaults && <div className="muted small">defaults {defaults}</div>}
        <FieldProblems ps={problems} />
      </td>
      <td className="small">{plural(h.tasks.filter((t) => !t.fallback).length, 'task')}</td>
    </tr>
  );
}

function Escalation({
  r,
  grants,
  problems,
  send,
}: {
  r: HarnessesResolved;
  grants: readonly { value: string; summary: string }[];
  problems: readonly DraftProblem[];
  send: (ops: Op[]) => void;
}) {
  const chosen = new Set(r.escalation.grants ?? []);
  const set = (harness: string | null, list: string[] | null) =>
    send([{ op: 'set_escalation', harness, grants: list }]);
  return (
    <section className="tpl-card" aria-labelledby="esc-title">
      <h2 id="esc-title">Escalation</h2>
      <p className="muted small">
        Who helps with a stopped item when it is escalated. Now: <code>{r.escalation_effective.harness}</code>
        {r.escalation_effective.set ? '' : ' (the default, not set in policy.yaml)'}.
      </p>
      <div className="row-form">
        <label>
          Escalation harness
          <select
            value={r.escalation.harness ?? ''}
            onChange={(e) => set(e.target.value === '' ? null : e.target.value, r.escalation.grants)}
          >
            <option value="">default (claude)</option>
            <option value="item">item (the item's own harness)</option>
            {r.harnesses.map((h) => (
              <option key={h.id}>{h.id}</option>
            ))}
          </select>
        </label>
        <fieldset className="inline-list">
          <legend className="small">Grants</legend>
          {grants.map((g) => (
            <label key={g.value} title={g.summary}>
              <input
                type="checkbox"
                checked={chosen.has(g.value)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(g.value);
                  else next.delete(g.value);
                  set(r.escalation.harness, next.size === 0 ? null : [...next]);
                }}
              />{' '}
              {g.value}
            </label>
          ))}
        </fieldset>
      </div>
      <FieldProblems ps={problems} />
    </section>
  );
}

export function HarnessesPage() {
  const d = useAreaDraft('harnesses', { after: [harnessesQuery().queryKey, reposQuery().queryKey] });
  const found = useQuery(harnessesQuery());
  const data = d.draft;
  const r = data && isHarnessesResolved(data.result.resolved) ? data.result.resolved : null;
  const problems = data?.result.problems ?? [];
  const send = (ops: Op[]) => void d.apply(ops);
  // Rows remount after each answer, so an input shows what the draft now holds.
  const stamp = data?.updated_at ?? 'published';
  return (
    <div className="harnesses">
      <DraftBar d={d} label="harnesses.yaml and policy.yaml" />
      {d.loadError && <p role="alert">{d.loadError.message}</p>}
      {found.error && <p role="alert">Could not look for the CLIs: {found.error.message}</p>}
      {data && !r && (
        <p role="alert">harnesses.yaml does not load: {data.result.problems[0]?.message ?? 'see its YAML'}</p>
      )}
      {r && (
        <>
          <section className="tpl-section" aria-labelledby="h-title">
            <h2 id="h-title">Agent CLIs</h2>
            <div className="scroll-x">
              <table className="tpl-table" aria-labelledby="h-title">
                <thead>
                  <tr>
                    <th>Harness</th>
                    <th>On this machine</th>
                    <th>Access</th>
                    <th>Enabled</th>
                    <th>Executable</th>
                    <th>Runs</th>
                  </tr>
                </thead>
                <tbody>
                  {r.harnesses.map((h) => (
                    <HarnessLine
                      key={`${h.id}-${stamp}`}
                      h={h}
                      found={found.data?.harnesses.find((x) => x.id === h.id)}
                      problems={problemsAt(problems, `harnesses.${h.id}`)}
                      send={send}
                    />
                  ))}
                </tbody>
              </table>
            </div>
            <p className="muted small">
              Access: <strong>available</strong> to every task, <strong>override</strong> only to a task whose
              own policy allows it, <strong>never</strong>.
            </p>
          </section>
          <Escalation
            r={r}
            grants={data?.result.choices.grants ?? []}
            problems={problems.filter(
              (p) => p.field === 'escalation_harness' || p.field === 'escalation_grants',
            )}
            send={send}
          />
          <Profiles r={r} problems={problems} send={send} />
          <Providers />
        </>
      )}
    </div>
  );
}
