import type { ProbeAnswer } from '../../../src/contract/repos.js';

/** A proposal of the probe with the reason it was made, or what it means that there is none. */
function Proposal({ label, p, none }: { label: string; p: ProbeAnswer['test_command']; none: string }) {
  return (
    <li>
      <strong>{label}:</strong> {p ? <code>{p.value}</code> : <span className="muted">{none}</span>}
      {p && <span className="muted small"> — {p.reason}</span>}
    </li>
  );
}

/**
 * What the probe of a repository found, each proposal with its reason: shown before connecting, by
 * the first-run wizard and by Templates › Repos alike.
 */
export function ProbeSummary({ probe, connectedNote }: { probe: ProbeAnswer; connectedNote: string }) {
  return (
    <>
      <p>
        <strong>{probe.name}</strong> at <code>{probe.path}</code>
        {probe.default_branch ? `, on ${probe.default_branch}` : ''}
        {probe.connected ? ` (${connectedNote})` : ''}
      </p>
      <ul>
        <Proposal
          label="Tests"
          p={probe.test_command}
          none="none found: say how to run them, or leave empty for no tests"
        />
        <Proposal label="Setup in a new worktree" p={probe.setup_command} none="nothing found to run" />
        <Proposal label="Forge" p={probe.forge} none="none (merge requests need one)" />
      </ul>
    </>
  );
}
