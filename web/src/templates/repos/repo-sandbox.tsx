import { useId } from 'react';
import type { RepoView } from '../../../../src/contract/repos.js';
import { Sandbox } from '../../../../src/contract/config/sandbox.js';
import { DraftBar } from '../../drafts/draft-bar.js';
import { useAreaDraft } from '../../drafts/use-area-draft.js';
import { reposQuery } from '../../queries.js';
import { FieldProblems, problemsAt } from '../../settings/draft.js';
import type { SandboxBlock } from '../../settings/policy-types.js';
import { SandboxForm, sandboxLine } from '../../settings/sandbox-form.js';
import { SandboxHere } from '../../settings/sandbox-here.js';

/*
 * Templates › Repos › Edit › Sandbox: a repository's own `sandbox:` in repos.yaml (docs/sandbox.md),
 * set through the repos draft (one `set_repo` whose patch is `{sandbox}`; null removes it), then
 * Review & publish. The draft's resolved answer says what the repository's tasks run in now: its
 * own block, or policy.yaml's instance default.
 */

interface RepoSandboxState {
  /** Where the entry's problems are: `repos.<index>`. */
  index: number;
  own: boolean;
  block: Sandbox | null;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The repository's sandbox in the draft's resolved answer; null while the answer lacks it. */
export function repoSandboxOf(resolved: unknown, path: string): RepoSandboxState | null {
  if (!isObj(resolved) || !Array.isArray(resolved.repos)) return null;
  const entry: unknown = resolved.repos.find((r: unknown) => isObj(r) && r.path === path);
  if (!isObj(entry) || typeof entry.index !== 'number' || !isObj(entry.resolved) || !isObj(entry.sources))
    return null;
  const parsed = Sandbox.safeParse(entry.resolved.sandbox);
  return {
    index: entry.index,
    own: entry.sources.sandbox === 'repo',
    block: parsed.success ? parsed.data : null,
  };
}

export function RepoSandbox({ r }: { r: RepoView }) {
  const id = useId();
  const d = useAreaDraft('repos', { after: [reposQuery().queryKey] });
  const state = repoSandboxOf(d.draft?.result.resolved, r.path);
  const busy = d.busy || d.barBusy;
  const save = (sandbox: SandboxBlock | null) =>
    void d.apply([{ op: 'set_repo', path: r.path, patch: { sandbox } }]);
  // The entry's own block, or one written under its policy (which may only repeat it).
  const all = d.draft?.result.problems ?? [];
  const problems = state
    ? [
        ...problemsAt(all, `repos.${state.index}.sandbox`),
        ...problemsAt(all, `repos.${state.index}.policy.sandbox`),
      ]
    : [];
  return (
    <section className="repo-sandbox" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Sandbox of {r.name}</h3>
      {state === null ? (
        <p className="muted">{d.loadError ? String(d.loadError) : 'Reading repos.yaml…'}</p>
      ) : (
        <>
          <p data-testid="repo-sandbox-now">
            {state.own
              ? `Its own: ${state.block ? sandboxLine(state.block) : 'none set.'}`
              : state.block
                ? `From policy.yaml (the instance default): ${sandboxLine(state.block)} The form starts from it.`
                : 'None set here or in policy.yaml: its tasks run with the server’s reach, unless their chain sets a sandbox.'}
          </p>
          <SandboxHere />
          <SandboxForm
            block={state.own ? state.block : null}
            start={state.own ? null : state.block}
            reset={d.draft?.updated_at ?? 'published'}
            busy={busy}
            submit={`Set ${r.name}'s sandbox`}
            onSave={save}
            onRemove={() => save(null)}
          />
          <FieldProblems problems={problems} />
          {d.refusal && <p role="alert">{d.refusal}</p>}
        </>
      )}
      <DraftBar d={d} label="repos.yaml" />
    </section>
  );
}
