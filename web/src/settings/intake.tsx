import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { IntakeAnswer } from '../../../src/contract/intake-route.js';
import { intakeChecksQuery, intakeQuery } from '../queries.js';
import { DraftBar } from '../drafts/draft-bar.js';
import { useAreaDraft, type AreaDraft } from '../drafts/use-area-draft.js';
import { FieldProblems, problemsAt, type Problem } from './draft.js';
import { CheckField, FieldVersion, NumberField } from './field.js';
import { IntakeTrackers } from './intake-trackers.js';
import { ScheduleForm, type NewSchedule } from './schedule-form.js';

const SCHEDULE_FIELDS = ['cron', 'repo', 'chain', 'title', 'description'] as const;

/*
 * Settings › Auto-intake: intake.yaml through the `intake` draft (toggle, interval, priority
 * ceiling, repos, schedules), the running schedules' next fire times from the intake route, and
 * the log of auto-intake polls (its checks).
 */

export interface IntakeResolved {
  enabled: boolean;
  interval_s: number;
  priority_ceiling: number;
  repos: string[];
  schedules: {
    index: number;
    cron: string | null;
    repo: string | null;
    chain: string | null;
    title: string | null;
    description: string;
  }[];
}

function intakeResolved(v: unknown): IntakeResolved | null {
  if (typeof v !== 'object' || v === null || !('schedules' in v)) return null;
  // The intake area's own shape (docs/drafts.md, "The intake area").
  return v as IntakeResolved;
}

export function IntakePage() {
  const d = useAreaDraft('intake', { after: [intakeQuery().queryKey] });
  const running = useQuery(intakeQuery());
  if (d.loadError)
    return (
      <p className="banner error" role="alert">
        {d.loadError.message}
      </p>
    );
  if (!d.draft) return <p className="muted">Loading auto-intake…</p>;
  const r = intakeResolved(d.draft.result.resolved);
  const problems = d.draft.result.problems;
  const patch = (key: string) => (value: unknown) => d.apply([{ op: 'set_intake', patch: { [key]: value } }]);
  const general = problems.filter((p) => p.index === undefined);

  return (
    <div className="settings-area">
      <DraftBar d={d} label="intake.yaml" />
      {running.data?.invalid_intake && (
        <p className="banner error" role="alert">
          The running intake.yaml does not load: {running.data.invalid_intake}
        </p>
      )}
      {r ? (
        <FieldVersion.Provider value={d.draft.updated_at ?? 'published'}>
          <section className="settings-card" aria-labelledby="auto-h">
            <h2 id="auto-h">Auto-intake</h2>
            <p className="muted">
              Files work items from the tracker&apos;s ready issues. Schedules run either way.
            </p>
            <div className="fields">
              <CheckField
                label="Auto-intake on"
                value={r.enabled}
                problems={problemsAt(general, 'enabled')}
                onSave={patch('enabled')}
              />
              <NumberField
                label="Poll every (s)"
                value={r.interval_s}
                problems={problemsAt(general, 'interval_s')}
                disabled={d.busy}
                onSave={patch('interval_s')}
              />
              <NumberField
                label="Priority ceiling (0–4)"
                value={r.priority_ceiling}
                problems={problemsAt(general, 'priority_ceiling')}
                disabled={d.busy}
                onSave={patch('priority_ceiling')}
              />
            </div>
            <Repos
              value={r.repos}
              problems={problemsAt(general, 'repos')}
              busy={d.busy}
              onSave={patch('repos')}
            />
          </section>
          <IntakeTrackers draft={d.draft} />
          <section className="settings-card" aria-labelledby="sched-h">
            <h2 id="sched-h">Schedules</h2>
            <Schedules r={r} problems={problems} running={running.data} busy={d.busy} apply={d.apply} />
            <ScheduleForm busy={d.busy} add={(s) => d.apply([{ op: 'add_schedule', ...s }])} />
          </section>
        </FieldVersion.Provider>
      ) : (
        <FieldProblems problems={problems} />
      )}
      <ChecksLog />
    </div>
  );
}

function Repos({
  value,
  problems,
  busy,
  onSave,
}: {
  value: string[];
  problems: Problem[];
  busy: boolean;
  onSave: (v: string[]) => Promise<boolean>;
}) {
  const shown = value.join('\n');
  const [text, setText] = useState<string | null>(null);
  return (
    <div className="field">
      <label htmlFor="intake-repos">Repositories to poll (one path a line; empty: every enabled one)</label>
      <textarea
        id="intake-repos"
        rows={2}
        value={text ?? shown}
        disabled={busy}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          if (text === null || text === shown) return;
          const list = text
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean);
          void onSave(list).then(() => setText(null));
        }}
      />
      <FieldProblems problems={problems} />
    </div>
  );
}

function Schedules({
  r,
  problems,
  running,
  busy,
  apply,
}: {
  r: IntakeResolved;
  problems: Problem[];
  running: IntakeAnswer | undefined;
  busy: boolean;
  apply: AreaDraft['apply'];
}) {
  const [editing, setEditing] = useState<number | null>(null);
  if (r.schedules.length === 0) return <p className="muted">No schedules.</p>;
  return (
    <table className="schedules">
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Cron (UTC)</th>
          <th scope="col">Repository</th>
          <th scope="col">Chain</th>
          <th scope="col">Next</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {r.schedules.map((s) => {
          // The running answer lists intake.yaml's schedules first, by the same index.
          const live = running?.schedules.find((x) => x.source === 'intake' && x.index === s.index);
          const same = live && live.cron === s.cron && live.repo === s.repo && live.chain === s.chain;
          const mine = problems.filter((p) => p.index === s.index);
          const was: NewSchedule = {
            cron: s.cron ?? '',
            repo: s.repo ?? '',
            chain: s.chain ?? '',
            title: s.title ?? '',
            description: s.description,
          };
          if (editing === s.index)
            return (
              <tr key={s.index}>
                <td colSpan={6}>
                  <ScheduleForm
                    busy={busy}
                    initial={was}
                    onCancel={() => setEditing(null)}
                    add={async (next) => {
                      // Only the keys that changed: `set_schedule` leaves the others as written.
                      const patch = Object.fromEntries(
                        SCHEDULE_FIELDS.filter((k) => next[k] !== was[k]).map((k) => [k, next[k]]),
                      );
                      const ok =
                        Object.keys(patch).length === 0 ||
                        (await apply([{ op: 'set_schedule', index: s.index, patch }]));
                      if (ok) setEditing(null);
                      return ok;
                    }}
                  />
                </td>
              </tr>
            );
          return (
            <tr key={s.index}>
              <td>
                {s.title}
                <FieldProblems problems={mine} />
              </td>
              <td>
                <code>{s.cron}</code>
              </td>
              <td>{s.repo}</td>
              <td>{s.chain}</td>
              <td>
                {same && live.next_fire_at ? (
                  <time dateTime={live.next_fire_at}>{fmtTime(live.next_fire_at)}</time>
                ) : (
                  <span className="muted">{same ? 'never' : 'after publish'}</span>
                )}
              </td>
              <td>
                <button className="link" disabled={busy} onClick={() => setEditing(s.index)}>
                  Edit {s.title}
                </button>{' '}
                <button
                  className="link"
                  disabled={busy}
                  onClick={() => void apply([{ op: 'remove_schedule', index: s.index }])}
                >
                  Remove {s.title}
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function ChecksLog() {
  const checks = useQuery(intakeChecksQuery());
  return (
    <section className="settings-card" aria-labelledby="checks-h">
      <h2 id="checks-h">Checks log</h2>
      {checks.error && (
        <p className="banner error" role="alert">
          {checks.error.message}
        </p>
      )}
      {checks.data?.length === 0 && <p className="muted">No auto-intake poll has run yet.</p>}
      {checks.data && checks.data.length > 0 && (
        <ul className="checks">
          {checks.data.map((c) => (
            <li key={c.id}>
              <time dateTime={c.at}>{fmtTime(c.at)}</time> — {c.ready} ready, {c.started.length} started
              {c.skipped.length > 0 &&
                `, skipped: ${c.skipped.map((s) => `${s.bead ?? 'poll'} (${s.reason.replaceAll('_', ' ')})`).join(', ')}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function fmtTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
