import { useRef } from 'react';
import { useAreaDraft } from '../drafts/use-area-draft.js';
import { policyPreviewKey, policyQuery } from '../queries.js';
import { problemsAt, type Problem } from './draft.js';
import { fieldKeys } from './policy-fields.js';
import { policyResolved, type PolicyResolved } from './policy-types.js';

/**
 * Settings › Policy's state: policy.yaml through the `policy` draft, what it resolves to, each key's
 * problems, and the op a field sends. While the draft's file does not load the server resolves
 * nothing; the fields keep the last values that did, so the one just typed stays in place with its
 * problem beside it.
 */
export function usePolicy() {
  const d = useAreaDraft('policy', { after: [policyQuery().queryKey], previews: policyPreviewKey });
  const last = useRef<PolicyResolved | null>(null);
  const fresh = policyResolved(d.draft?.result.resolved);
  if (fresh) last.current = fresh;
  const resolved = fresh ?? last.current;
  // Which answer the fields show. It stays the last that loaded while the file does not load, so
  // the field just typed is not put back; each return to a file that loads is a version of its own,
  // so an Undo back to the same published file still puts every field back.
  const shown = useRef({ version: '', loads: true, returns: 0 });
  if (d.draft) {
    const s = shown.current;
    if (fresh) {
      if (!s.loads) s.returns += 1;
      s.loads = true;
      s.version = `${d.draft.updated_at ?? 'published'} ${s.returns}`;
    } else s.loads = false;
  }
  const problems = d.draft?.result.problems ?? [];
  const at = (key: string): Problem[] => problemsAt(problems, key);
  /** The `set_value` op of one key. */
  const set = (scope: string, key: string) => (value: unknown) =>
    d.apply([{ op: 'set_value', scope, key, value }]);
  // A problem no field shows (the file as a whole, a legacy trigger, a harness list) is still listed.
  const keys = resolved ? fieldKeys(resolved) : [];
  const unplaced = problems.filter((p) => !keys.some((k) => problemsAt([p], k).length > 0));
  return {
    d,
    /** What the fields show: the draft's resolved policy, or the last one that loaded. */
    resolved,
    /** Whether the draft's policy.yaml loads now. */
    loads: fresh !== null,
    /** Which answer the fields show (field.tsx FieldVersion): fixed while the file does not load. */
    version: shown.current.version,
    at,
    set,
    unplaced,
  };
}

export type PolicyState = ReturnType<typeof usePolicy>;
export type SetValue = PolicyState['set'];
