import type { RepoView } from '../../../../src/contract/repos.js';
import { CommandFields, PathForm } from '../../repos/connect-parts.js';
import { ProbeSummary } from '../../repos/probe-summary.js';
import { useRepoConnect } from '../../repos/use-repo-connect.js';

/*
 * Connect a repository from Templates › Repos: probed first, its commands edited, then connected,
 * as the first-run wizard does (repos/use-repo-connect.ts).
 */

export function ConnectForm({ initial, onDone }: { initial: string; onDone: (r: RepoView) => void }) {
  const c = useRepoConnect(initial);
  const probe = c.probe;
  return (
    <section className="tpl-card" aria-labelledby="connect-title">
      <h2 id="connect-title">Connect a repository</h2>
      <PathForm c={c} className="row-form" size={48} />
      {probe && (
        <div className="probe">
          <ProbeSummary probe={probe} connectedNote="already connected: connecting again re-probes it" />
          {probe.workspace && (
            <p className="muted small">
              It has submodules: Jig proposes a workspace <code>{probe.workspace.name}</code> (
              {probe.workspace.reason}). Workspaces are set up in repos.yaml or by the first-run wizard.
            </p>
          )}
          <div className="row-form">
            <CommandFields c={c} setupBox size={32} />
          </div>
          <div className="tpl-buttons">
            <button
              type="button"
              className="primary"
              onClick={() => void c.connect().then((repo) => repo && onDone(repo))}
            >
              Connect {probe.name}
            </button>
          </div>
        </div>
      )}
      {c.error && <p role="alert">{c.error}</p>}
    </section>
  );
}
