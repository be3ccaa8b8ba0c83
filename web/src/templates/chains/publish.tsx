import { createTwoFilesPatch } from 'diff';
import { useState } from 'react';
import { ApiError } from '../../api.js';
import type { Draft, Problem, Published } from './draft-api.js';
import { ChainTestPanel } from './chain-test-panel.js';
import { baseText, threeWay } from './merge.js';
import { changeWords } from './change-words.js';

/*
 * Review & publish: what the draft changes (the result's `changes`), what it reaches (`impact`),
 * the diff of each file, a chain test of the draft (chain-test-panel.tsx), then the publish. A
 * stale publish (409: the file changed on disk since the draft began) is a choice: rebase carrying
 * the draft's edits onto the new file, rebase keeping the draft's text over it, or discard the draft.
 */

interface Stale {
  detail: string;
  files: Record<string, { published: string | null; draft: string | null; diff: string }>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const textOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

function staleOf(e: ApiError): Stale | null {
  if (e.status !== 409 || !isRecord(e.body) || !isRecord(e.body.files)) return null;
  const files: Stale['files'] = {};
  for (const [f, v] of Object.entries(e.body.files)) {
    if (!isRecord(v) || !textOrNull(v.published) || !textOrNull(v.draft) || typeof v.diff !== 'string')
      return null;
    files[f] = { published: v.published, draft: v.draft, diff: v.diff };
  }
  return { detail: e.message, files };
}

function problemsOf(e: ApiError): Problem[] {
  if (!isRecord(e.body) || !Array.isArray(e.body.problems)) return [];
  return e.body.problems.filter(
    (p): p is Problem => isRecord(p) && typeof p.path === 'string' && typeof p.message === 'string',
  );
}

export function Diff({ text }: { text: string }) {
  // The patch's `Index:` and `====` banner lines say nothing the file headers do not.
  const lines = text.split('\n').filter((l) => !l.startsWith('Index: ') && !/^=+$/.test(l));
  return (
    <pre className="ce-diff">
      {lines.map((l, i) => (
        <span
          key={i}
          className={
            l.startsWith('+') && !l.startsWith('+++')
              ? 'ce-add'
              : l.startsWith('-') && !l.startsWith('---')
                ? 'ce-del'
                : undefined
          }
        >
          {l}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

export interface PublishProps {
  draft: Draft;
  publish: () => Promise<Published>;
  rebase: () => Promise<Draft>;
  putFile: (file: string, text: string) => Promise<Draft>;
  discard: () => Promise<void>;
  onDone: (published: Published | null) => void;
  onBack: () => void;
}

export function Publish({ draft, publish, rebase, putFile, discard, onDone, onBack }: PublishProps) {
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [stale, setStale] = useState<Stale | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const { changes, impact } = draft.result;
  const fail = (e: unknown) => {
    if (!(e instanceof ApiError)) return setError(String(e));
    setError(e.message);
    setProblems(problemsOf(e));
    setStale(staleOf(e));
  };
  const clear = () => {
    setError(null);
    setProblems([]);
    setNote(null);
  };
  // The draft's edits carried onto what is on disk now, file by file, when each one merges.
  const merged = stale
    ? Object.entries(stale.files).map(([f, v]) => {
        const base = baseText(draft.base[f]);
        return {
          file: f,
          text:
            base !== null && v.draft !== null && v.published !== null
              ? threeWay(base, v.draft, v.published)
              : null,
        };
      })
    : [];
  const canMerge = merged.length > 0 && merged.every((m) => m.text !== null);
  return (
    <section className="ce-publish" aria-label="Review and publish">
      <h2>Review &amp; publish</h2>
      {error && (
        <div className="banner" role="alert">
          <p>{error}</p>
          {problems.map((p, i) => (
            <p key={i}>
              <code>{p.path || '(chain)'}</code> {p.field ? `${p.field}: ` : ''}
              {p.message}
              {p.line ? ` (line ${p.line})` : ''}
            </p>
          ))}
        </div>
      )}
      {stale && (
        <div className="ce-stale" role="group" aria-label="Published since this draft began">
          <p>
            The chain was published since your draft began. What publishing your draft as it is would do to
            the file on disk now:
          </p>
          {Object.entries(stale.files).map(([f, v]) => (
            <Diff key={f} text={v.diff} />
          ))}
          <div className="ce-actions">
            <button
              type="button"
              className="primary"
              disabled={!canMerge}
              title={
                canMerge
                  ? undefined
                  : 'Both changed the same lines, or the draft’s starting text is not known here'
              }
              onClick={() => {
                clear();
                void (async () => {
                  // The merged text first: if saving it fails nothing was rebased and the draft
                  // stays stale, so a publish cannot write over the other change.
                  for (const m of merged) if (m.text !== null) await putFile(m.file, m.text);
                  await rebase();
                  setStale(null);
                  setNote('Rebased: your edits now sit on the newer file. Look again, then publish.');
                })().catch(fail);
              }}
            >
              Rebase, keep both
            </button>
            <button
              type="button"
              onClick={() => {
                clear();
                rebase()
                  .then(() => {
                    setStale(null);
                    setNote('Rebased: publishing now writes your version over theirs.');
                  })
                  .catch(fail);
              }}
            >
              Rebase, keep mine only
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                clear();
                discard()
                  .then(() => onDone(null))
                  .catch(fail);
              }}
            >
              Discard my draft
            </button>
          </div>
        </div>
      )}
      <h3>Changes</h3>
      {changes.length === 0 ? (
        <p className="muted">No change against the published chain.</p>
      ) : (
        <ul className="ce-changes">
          {changes.map((c, i) => {
            const w = changeWords(c);
            return (
              <li key={i}>
                <span className={`chip ce-kind-${c.kind}`}>{w.chip}</span> <code>{w.where}</code>: {w.what}
              </li>
            );
          })}
        </ul>
      )}
      <h3>Impact</h3>
      {impact && 'running' in impact && typeof impact.running === 'number' && 'repos' in impact ? (
        <p>
          {impact.running} item{impact.running === 1 ? '' : 's'} on this chain not ended (they keep the chain
          they started with); default chain of {impact.repos.length ? impact.repos.join(', ') : 'no repo'}.
        </p>
      ) : (
        <p className="muted">Nothing reached.</p>
      )}
      <h3>Diff</h3>
      {Object.entries(draft.files).map(([f, text]) => (
        <Diff
          key={f}
          text={createTwoFilesPatch(
            `published ${f}`,
            `draft ${f}`,
            draft.published[f] ?? '',
            text ?? '',
            '',
            '',
            { context: 3 },
          )}
        />
      ))}
      <ChainTestPanel draft={draft} />
      {note && <p role="status">{note}</p>}
      <div className="ce-actions">
        <button
          type="button"
          className="primary"
          disabled={stale !== null}
          onClick={() => {
            clear();
            setStale(null);
            publish().then(onDone).catch(fail);
          }}
        >
          Publish
        </button>
        <button type="button" onClick={onBack}>
          Back to the editor
        </button>
      </div>
    </section>
  );
}
