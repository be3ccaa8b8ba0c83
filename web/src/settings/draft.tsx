import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type {
  DraftAnswer,
  DraftProblem,
  OpsAnswer,
  PublishAnswer,
} from '../../../src/contract/drafts/answers.js';
import { del, get, post } from '../api.js';
import { StalePanel, staleOf, type Stale } from './stale.js';

/*
 * The settings areas (`policy`, `intake`) edit through the drafts protocol: every change is an op
 * on a server-side draft, checked as a reload would check it, and nothing runs differently until
 * Review & publish. One hook and one bar serve both areas.
 */

export type Draft = z.infer<typeof DraftAnswer>;
export type Problem = DraftProblem;
type Published = z.infer<typeof PublishAnswer>;
export type Op = { op: string } & Record<string, unknown>;

/** What a settings screen needs of its area's draft: the answer, and ways to change it. */
export interface AreaDraft {
  draft: Draft | undefined;
  loadError: Error | null;
  /** The refusal of the last op, with the index of the op it names. */
  refusal: string | null;
  busy: boolean;
  apply: (ops: Op[]) => Promise<boolean>;
  refresh: () => Promise<void>;
}

export function useAreaDraft(area: 'policy' | 'intake', after: string[][] = []): AreaDraft {
  const client = useQueryClient();
  const key = ['draft', area];
  const q = useQuery({ queryKey: key, queryFn: () => get<Draft>(`/api/drafts/${area}/${area}`) });
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function apply(ops: Op[]): Promise<boolean> {
    setBusy(true);
    try {
      // A preview of the draft still in flight would be answered after the op: a value that stops
      // the draft loading would turn it into a 422. Cancelled, it is asked again with the new key.
      await client.cancelQueries({ queryKey: [`${area}-preview`] });
      const answer = await post<z.infer<typeof OpsAnswer>>(`/api/drafts/${area}/${area}/ops`, { ops });
      client.setQueryData(key, answer);
      setRefusal(null);
      return true;
    } catch (e) {
      setRefusal(e instanceof Error ? e.message : String(e));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function refresh() {
    await client.invalidateQueries({ queryKey: key });
    for (const k of after) await client.invalidateQueries({ queryKey: k });
    await client.invalidateQueries({ queryKey: ['apply'] });
  }

  return { draft: q.data, loadError: q.error, refusal, busy, apply, refresh };
}

/** The problems that sit at one key (`maxima.tasks.budget_usd`) or under it. */
export function problemsAt(problems: Problem[], key: string): Problem[] {
  return problems.filter((p) => {
    const at = p.field ? (p.path ? `${p.path}.${p.field}` : p.field) : p.path;
    return at === key || at.startsWith(`${key}.`);
  });
}

/** Problem messages under a field, announced as they appear. */
export function FieldProblems({ problems }: { problems: Problem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="field-problems" role="alert">
      {problems.map((p, i) => (
        <li key={i}>{p.message}</li>
      ))}
    </ul>
  );
}

/** Where a value comes from: the file writes it, or the schema's default applies. */
export function Source({ source }: { source: string | null }) {
  if (source === null) return null;
  return <span className={`source source-${source}`}>{source === 'policy' ? 'set' : source}</span>;
}

/**
 * The draft's bar: what is pending, Undo, Discard, and Review & publish, which shows the changes,
 * the problems and the impact before the publish, and the server's refusal if it refuses.
 */
export function DraftBar({ area, d, label }: { area: 'policy' | 'intake'; d: AreaDraft; label: string }) {
  const [reviewing, setReviewing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [stale, setStale] = useState<Stale | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const draft = d.draft;
  if (!draft) return null;
  const result = draft.result;
  const base = `/api/drafts/${area}/${area}`;

  async function run(what: () => Promise<unknown>, after?: (v: unknown) => void) {
    setBusy(true);
    setError(null);
    try {
      const v = await what();
      after?.(v);
      await d.refresh();
    } catch (e) {
      const s = staleOf(e);
      setStale(s);
      setError(s ? null : e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  const publish = () =>
    run(
      () => post<Published>(`${base}/publish`),
      () => {
        setReviewing(false);
        setStale(null);
        setDone(`Published ${label}.`);
      },
    );

  const discard = () =>
    run(
      () => del(base),
      () => {
        setReviewing(false);
        setStale(null);
        setDone(`Draft discarded: this is the published ${label}.`);
      },
    );

  return (
    <div className="draft-bar">
      <div className="draft-bar-row">
        {draft.draft ? (
          <span role="status">
            Draft: {result.changes.length} {result.changes.length === 1 ? 'change' : 'changes'}
            {result.problems.length > 0 ? `, ${result.problems.length} to fix` : ''}
          </span>
        ) : (
          <span role="status" className="muted">
            {done ?? `No unpublished changes: this is the published ${label}.`}
          </span>
        )}
        <span className="spacer" />
        <button
          disabled={!draft.draft || busy}
          onClick={() =>
            void run(
              () => post(`${base}/undo`),
              () => setDone(null),
            )
          }
        >
          Undo
        </button>
        <button disabled={!draft.draft || busy} onClick={() => void discard()}>
          Discard draft
        </button>
        <button
          className="primary"
          disabled={!draft.draft || busy}
          onClick={() => {
            setDone(null);
            setReviewing((r) => !r);
          }}
        >
          Review & publish
        </button>
      </div>
      {d.refusal && (
        <p className="banner error" role="alert">
          {d.refusal}
        </p>
      )}
      {error && (
        <p className="banner error" role="alert">
          {error}
        </p>
      )}
      {stale && (
        <StalePanel
          stale={stale}
          busy={busy}
          onRebase={() =>
            void run(
              () => post(`${base}/rebase`),
              () => setStale(null),
            )
          }
          onDiscard={() => void discard()}
        />
      )}
      {reviewing && draft.draft && (
        <section className="review-publish" aria-label="Review and publish">
          <h3>Changes</h3>
          <ul className="changes">
            {result.changes.map((c, i) => (
              <li key={i}>
                <code>{c.path}</code> {c.summary}
              </li>
            ))}
          </ul>
          {result.impact && <p className="muted">Impact: {impactText(result.impact)}</p>}
          {result.problems.length > 0 ? (
            <>
              <h3>To fix before publishing</h3>
              <ul className="field-problems">
                {result.problems.map((p, i) => (
                  <li key={i}>
                    <code>{[p.path, p.field].filter(Boolean).join('.')}</code> {p.message}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="muted">Checked as a reload would: no problems.</p>
          )}
          <div className="buttons">
            <button onClick={() => setReviewing(false)}>Keep editing</button>
            <button
              className="primary"
              disabled={busy || stale !== null || result.problems.length > 0}
              onClick={() => void publish()}
            >
              Publish
            </button>
          </div>
        </section>
      )}
    </div>
  );
}

function impactText(impact: NonNullable<Draft['result']['impact']>): string {
  if ('tasks' in impact) return `${impact.tasks} tasks in ${impact.chains.join(', ') || 'no chain'}`;
  if ('chains' in impact) return `chains ${impact.chains.join(', ') || 'none'}`;
  if (typeof impact.running === 'number') return `${impact.running} items running`;
  return Object.entries(impact.running)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
}

/**
 * A number typed into a field: '' clears it (null), anything else must be a number. Returns
 * undefined for text that is not one, so the screen can say so instead of sending it.
 */
export function parseNumber(text: string): number | null | undefined {
  const t = text.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}
