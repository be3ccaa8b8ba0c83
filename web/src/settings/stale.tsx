import { ApiError } from '../api.js';
import './stale.css';

/*
 * A stale publish of a settings draft (409 `draft_stale`): a file the draft holds changed on disk
 * since the draft began, a hand edit or another draft's publish (the Policy and Harnesses drafts
 * both hold policy.yaml). The server sends each file's diff; the person chooses Rebase, which
 * keeps the draft's text over the new file, or Discard. Shared by Settings and Templates › Harnesses.
 */

export interface Stale {
  detail: string;
  files: { file: string; diff: string }[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The stale refusal in an error, or null when the error is something else. */
export function staleOf(e: unknown): Stale | null {
  if (!(e instanceof ApiError) || e.status !== 409 || e.code !== 'draft_stale') return null;
  const files: Stale['files'] = [];
  if (isRecord(e.body) && isRecord(e.body.files))
    for (const [file, v] of Object.entries(e.body.files))
      files.push({ file, diff: isRecord(v) && typeof v.diff === 'string' ? v.diff : '' });
  return { detail: e.message, files };
}

export function StalePanel({
  stale,
  busy,
  onRebase,
  onDiscard,
}: {
  stale: Stale;
  busy: boolean;
  onRebase: () => void;
  onDiscard: () => void;
}) {
  return (
    <div className="banner error stale-panel" role="alert">
      <p>{stale.detail}</p>
      {stale.files.map((f) => (
        <details key={f.file} open>
          <summary>
            What changed in <code>{f.file}</code> against this draft
          </summary>
          <DiffText text={f.diff} />
        </details>
      ))}
      <p>
        Rebase keeps this draft&apos;s text: publishing it then replaces what changed on disk. To keep both,
        discard the draft and make the change again.
      </p>
      <div className="stale-buttons">
        <button type="button" disabled={busy} onClick={onRebase}>
          Rebase on the file on disk
        </button>
        <button type="button" disabled={busy} onClick={onDiscard}>
          Discard the draft
        </button>
      </div>
    </div>
  );
}

function DiffText({ text }: { text: string }) {
  if (text === '') return <p className="muted small">No diff sent.</p>;
  // The patch's `Index:` and `====` banner lines say nothing the file headers do not.
  const lines = text.split('\n').filter((l) => !l.startsWith('Index: ') && !/^=+$/.test(l));
  return (
    <pre className="stale-diff">
      {lines.map((l, i) => (
        <span
          key={i}
          className={
            l.startsWith('+') && !l.startsWith('+++')
              ? 'stale-add'
              : l.startsWith('-') && !l.startsWith('---')
                ? 'stale-del'
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
