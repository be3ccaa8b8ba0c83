import { useRef } from 'react';
import {
  DraftBar,
  FieldProblems,
  Source,
  problemsAt,
  useAreaDraft,
  type AreaDraft,
  type Problem,
} from './draft.js';
import { CheckField, FieldVersion, NumberField } from './field.js';
import { PolicyLoops } from './policy-loops.js';
import { PolicyPreview } from './policy-preview.js';
import {
  CAPS,
  CAP_LABEL,
  LEVELS,
  LEVEL_LABEL,
  policyResolved,
  type PolicyResolved,
  type Sourced,
} from './policy-types.js';

/** The finding severities policy.yaml takes, most severe first. */
const SEVERITIES = ['critical', 'important', 'minor'];

/*
 * Settings › Policy: policy.yaml through the `policy` draft. Each field sends one `set_value` op
 * (scope and dotted key as the drafts doc lists them); its problems show beside it; nothing runs
 * differently until Review & publish.
 */

export function PolicyPage() {
  const d = useAreaDraft('policy', [['policy']]);
  // While the draft's file does not load the server resolves nothing; the fields keep the last
  // values that did, so the one just typed stays in place with its problem beside it.
  const last = useRef<PolicyResolved | null>(null);
  const fresh = policyResolved(d.draft?.result.resolved);
  if (fresh) last.current = fresh;
  if (d.loadError)
    return (
      <p className="banner error" role="alert">
        {d.loadError.message}
      </p>
    );
  if (!d.draft) return <p className="muted">Loading the policy…</p>;
  const r = fresh ?? last.current;
  const problems = d.draft.result.problems;
  const at = (key: string) => problemsAt(problems, key);
  const set = (scope: string, key: string) => (value: unknown) =>
    d.apply([{ op: 'set_value', scope, key, value }]);

  const body = r ? (
    <>
      <section className="settings-card" aria-labelledby="caps-h">
        <h2 id="caps-h">Caps per scope</h2>
        <p className="muted">
          Each level&apos;s default applies where a chain sets nothing; its maximum bounds what any chain may
          set. Empty: no cap.
        </p>
        <CapsTable d={d} r={r} at={at} set={set} />
      </section>
      <section className="settings-card" aria-labelledby="budget-h">
        <h2 id="budget-h">Budget and attempts</h2>
        <div className="fields">
          <Num
            d={d}
            label="Budget per work item ($)"
            v={r.limits.work_item_usd}
            k="budget.work_item_usd"
            at={at}
            set={set('limits', 'budget.work_item_usd')}
          />
          <Num
            d={d}
            label="Budget per day ($)"
            v={r.limits.daily_usd}
            k="budget.daily_usd"
            at={at}
            set={set('limits', 'budget.daily_usd')}
          />
          <Num
            d={d}
            label="Attempts per node (default)"
            v={r.limits.max_attempts.default}
            k="defaults.max_attempts"
            at={at}
            set={set('limits', 'defaults.max_attempts')}
          />
          <Num
            d={d}
            label="Attempts per node (maximum)"
            v={r.limits.max_attempts.maximum}
            k="maxima.max_attempts"
            at={at}
            set={set('limits', 'maxima.max_attempts')}
          />
          <Num
            d={d}
            label="Node timeout, min (default)"
            v={r.limits.timeout_minutes.default}
            k="defaults.timeout_minutes"
            at={at}
            set={set('limits', 'defaults.timeout_minutes')}
          />
          <Num
            d={d}
            label="Node timeout, min (maximum)"
            v={r.limits.timeout_minutes.maximum}
            k="maxima.timeout_minutes"
            at={at}
            set={set('limits', 'maxima.timeout_minutes')}
          />
        </div>
        {r.limits.work_item_usd.binding && (
          <p className="muted small">
            An item&apos;s budget is bound by <code>{r.limits.work_item_usd.binding.key}</code> ={' '}
            {r.limits.work_item_usd.binding.value}.
          </p>
        )}
      </section>
      <PolicyLoops d={d} r={r} at={at} />
      <section className="settings-card" aria-labelledby="esc-h">
        <h2 id="esc-h">Escalation and retries</h2>
        <div className="fields">
          <CheckField
            label="Escalate stuck items automatically"
            value={r.escalation.auto_escalate_stuck.value}
            source={r.escalation.auto_escalate_stuck.source}
            problems={at('auto_escalate_stuck')}
            onSave={set('escalation', 'auto_escalate_stuck')}
          />
          <Num
            d={d}
            label="Automatic escalations per item"
            v={r.escalation.auto_escalate_stuck_cap}
            k="auto_escalate_stuck_cap"
            at={at}
            set={set('escalation', 'auto_escalate_stuck_cap')}
          />
          <Num
            d={d}
            label="Escalation delay (s)"
            v={r.escalation.auto_escalate_delay_s}
            k="auto_escalate_delay_s"
            at={at}
            set={set('escalation', 'auto_escalate_delay_s')}
          />
          <Num
            d={d}
            label="Automatic review attempts"
            v={r.escalation.auto_review_attempts}
            k="auto_review_attempts"
            at={at}
            set={set('escalation', 'auto_review_attempts')}
          />
          <Num
            d={d}
            label="Rate-limit retries"
            v={r.retries.rate_limit_retries}
            k="rate_limit_retries"
            at={at}
            set={set('retries', 'rate_limit_retries')}
          />
          <Num
            d={d}
            label="Forge CLI timeout (s)"
            v={r.retries.forge_cli_timeout_s}
            k="forge_cli_timeout_s"
            at={at}
            set={set('retries', 'forge_cli_timeout_s')}
          />
          <Num
            d={d}
            label="Forge poll interval (s)"
            v={r.retries.forge_poll_s}
            k="forge_poll_s"
            at={at}
            set={set('retries', 'forge_poll_s')}
          />
        </div>
      </section>
      <section className="settings-card" aria-labelledby="house-h">
        <h2 id="house-h">Housekeeping</h2>
        <div className="fields">
          <Num
            d={d}
            label="Items running at once"
            v={r.housekeeping.max_concurrent}
            k="max_concurrent"
            at={at}
            set={set('housekeeping', 'max_concurrent')}
          />
          <Num
            d={d}
            label="Archive ended items after (days)"
            v={r.housekeeping.archive_after_days}
            k="archive.after_days"
            at={at}
            set={set('housekeeping', 'archive.after_days')}
            unset="never"
          />
        </div>
        <fieldset className="severities">
          <legend>
            Findings that start a fix loop <Source source={r.findings.loop_severities.source} />
          </legend>
          {SEVERITIES.map((sev) => {
            const now = r.findings.loop_severities.value;
            return (
              <label key={sev} className="check">
                <input
                  type="checkbox"
                  checked={now.includes(sev)}
                  disabled={d.busy}
                  onChange={(e) =>
                    void set(
                      'findings',
                      'findings.loop_severities',
                    )(
                      e.target.checked
                        ? SEVERITIES.filter((x) => x === sev || now.includes(x))
                        : now.filter((x) => x !== sev),
                    )
                  }
                />
                {sev}
              </label>
            );
          })}
          <FieldProblems problems={at('findings.loop_severities')} />
        </fieldset>
      </section>
      <PolicyPreview updatedAt={d.draft.updated_at} loads={fresh !== null} />
    </>
  ) : null;
  // A problem no field shows (the file as a whole, a legacy trigger, a harness list) is still listed.
  const keys = r ? fieldKeys(r) : [];
  const unplaced = problems.filter((p) => !keys.some((k) => problemsAt([p], k).length > 0));

  const version = fresh ? (d.draft.updated_at ?? 'published') : 'does not load';

  return (
    <div className="settings-area">
      <DraftBar area="policy" d={d} label="policy.yaml" />
      {!fresh && (
        <p className="banner error" role="alert">
          The draft&apos;s policy.yaml does not load until its problems are fixed (or Undo).
        </p>
      )}
      <FieldVersion.Provider value={version}>{body}</FieldVersion.Provider>
      {unplaced.length > 0 && (
        <section className="settings-card" aria-labelledby="other-h">
          <h2 id="other-h">Other problems</h2>
          <FieldProblems problems={unplaced} />
        </section>
      )}
    </div>
  );
}

type At = (key: string) => Problem[];
type Set = (scope: string, key: string) => (value: unknown) => Promise<boolean>;

function Num({
  d,
  label,
  v,
  k,
  at,
  set,
  unset,
}: {
  d: AreaDraft;
  label: string;
  v: Sourced<number | null>;
  k: string;
  at: At;
  set: (value: unknown) => Promise<boolean>;
  unset?: string;
}) {
  return (
    <NumberField
      label={label}
      value={v.value}
      source={v.source}
      problems={at(k)}
      unset={unset ?? 'not set'}
      disabled={d.busy}
      onSave={set}
    />
  );
}

function CapsTable({ d, r, at, set }: { d: AreaDraft; r: PolicyResolved; at: At; set: Set }) {
  return (
    <div className="caps-scroll">
      <table className="caps">
        <thead>
          <tr>
            <th scope="col">Level</th>
            {CAPS.map((c) => (
              <th key={c} scope="col">
                {CAP_LABEL[c]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {LEVELS.map((level) => (
            <tr key={level}>
              <th scope="row">{LEVEL_LABEL[level]}</th>
              {CAPS.map((cap) => {
                const row = r.limits.caps[level][cap];
                const over = row.below.filter((b) => b.exceeds);
                return (
                  <td key={cap}>
                    <NumberField
                      label={`${LEVEL_LABEL[level]} ${CAP_LABEL[cap]} default`}
                      short="default"
                      value={row.default.value}
                      problems={at(`defaults.${level}.${cap}`)}
                      unset="none"
                      disabled={d.busy}
                      onSave={set('limits', `defaults.${level}.${cap}`)}
                    />
                    <NumberField
                      label={`${LEVEL_LABEL[level]} ${CAP_LABEL[cap]} maximum`}
                      short="max"
                      value={row.maximum.value}
                      problems={at(`maxima.${level}.${cap}`)}
                      unset="no bound"
                      disabled={d.busy}
                      onSave={set('limits', `maxima.${level}.${cap}`)}
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
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every key a field of this page shows problems for. */
function fieldKeys(r: PolicyResolved): string[] {
  return [
    ...LEVELS.flatMap((l) => CAPS.flatMap((c) => [`defaults.${l}.${c}`, `maxima.${l}.${c}`])),
    ...['budget.work_item_usd', 'budget.daily_usd', 'defaults.max_attempts', 'maxima.max_attempts'],
    ...['defaults.timeout_minutes', 'maxima.timeout_minutes', 'default.attempts', 'default.wall_clock_s'],
    ...r.loops.entries.map((e) => `loops.${e.key}`),
    ...['auto_escalate_stuck', 'auto_escalate_stuck_cap', 'auto_escalate_delay_s', 'auto_review_attempts'],
    ...['rate_limit_retries', 'forge_cli_timeout_s', 'forge_poll_s', 'max_concurrent', 'archive.after_days'],
    'findings.loop_severities',
  ];
}
