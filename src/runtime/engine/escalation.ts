import type { PolicyFile } from '../../contract/config/policy.js';
import type { ModelTask } from '../../core/chain/model.js';
import type { SessionRecord } from '../../store/sessions.js';
import type { ItemRecord } from '../../store/work-items.js';

/** The node name escalation sessions are recorded under: they belong to no node of the chain. */
export const ESCALATION_NODE = '<escalation>';
export const ESCALATION_PATH = 'escalation';

const GRANTS_DEFAULT = ['git-commit', 'git-rebase', 'git-push'];

/**
 * The harness an escalation turn runs on: policy's `escalation_harness` (chain policy first, then
 * policy.yaml defaults); `item` means the harness of the item's last agent session; else claude.
 */
export function escalationHarness(
  chainPolicy: { escalation_harness?: string } | undefined,
  policy: PolicyFile | null,
  sessions: readonly SessionRecord[],
): string {
  const named = chainPolicy?.escalation_harness ?? policy?.defaults?.escalation_harness ?? 'claude';
  if (named !== 'item') return named;
  return sessions.filter((s) => s.harness !== null).at(-1)?.harness ?? 'claude';
}

export function escalationGrants(policy: PolicyFile | null): string[] {
  return policy?.defaults?.escalation_grants ?? GRANTS_DEFAULT;
}

/**
 * The escalation turn as an agent task: it reads why the item stopped and what the person (or Jig,
 * for a stuck item) asks, may change the worktree, and can ask Jig to retry the item by answering
 * `suggested_action: {action: "retry"}` in its result file.
 */
export function escalationTask(rec: ItemRecord, harness: string, message: string): ModelTask {
  const stop = rec.stop_kind
    ? `It stopped (${rec.stop_kind}) at ${rec.current_node ?? 'its start'}: ${rec.stop_reason ?? ''}`
    : `It is ${rec.status}.`;
  const prompt = [
    `You are helping with a work item that stopped and needs help. ${stop}`,
    `What you are asked: ${message}`,
    'Investigate in this worktree (read the code, run commands, look at the git log), fix what is in your reach, and commit any change you make.',
    'In the result file, say what you found and did in "concerns". When the item can go on, add "suggested_action": {"action": "retry", "reason": "…"} and Jig retries the node it stopped on; otherwise a person decides.',
  ].join('\n\n');
  return { id: ESCALATION_PATH, path: ESCALATION_PATH, kind: 'agent', harness, prompt };
}
