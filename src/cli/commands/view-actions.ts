import { JigClient } from '../../client/http.js';
import { getItem } from '../../client/items.js';
import { worktreeOf, type Worktree } from '../../client/view-items.js';
import type { WorkItem } from '../../contract/items.js';
import { EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { outputStyle, paint, statusColour } from '../table.js';
import { itemFor } from './view-target.js';
import { usdText } from '../../core/money/usd.js';

/** `beads shop-1 (P2, closed)`: the issue, its priority when known, and what became of it once settled. */
function issueLine(x: {
  tracker: string;
  id: string;
  priority: number | null;
  closing: string;
  url?: string | null;
}): string {
  const notes = [
    ...(x.priority === null ? [] : [`P${x.priority}`]),
    ...(x.closing === 'open' ? [] : [x.closing.replace('_', ' ')]),
  ];
  return `${x.tracker} ${x.id}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}${x.url ? ` ${x.url}` : ''}`;
}

/** Where the item's work is: its branch and worktree, and what became of them. */
function whereLines(i: WorkItem, wt: Worktree | null): string[] {
  const gone = i.status === 'abandoned' && (wt === null || wt.reclaimed);
  const branch = gone ? ' (deleted)' : wt === null ? ' (not created yet)' : '';
  const worktree = wt === null ? 'none yet' : `${wt.path}${wt.reclaimed ? ' (removed)' : ''}`;
  return [`branch   ${i.branch}${branch}`, `worktree ${worktree}`];
}

/**
 * What to do with an ended item: a completed or cancelled one keeps its worktree, which holds its
 * branch checked out (git refuses to check it out anywhere else) until an archive removes it; only
 * an abandon deletes a cancelled item's branch.
 */
function endedHint(i: WorkItem, wt: Worktree | null): string | null {
  // An item that never had a worktree has no branch either: nothing to free or delete.
  if ((i.status !== 'completed' && i.status !== 'cancelled') || wt === null) return null;
  const live = !wt.reclaimed;
  const abandon = `jig item abandon ${i.id} --reason TEXT --yes deletes the worktree and the branch`;
  const archive = `jig item archive ${i.id} removes the worktree and frees the branch ${i.branch}`;
  if (i.status === 'completed') return live && !i.archived ? archive : null;
  if (live && !i.archived) return `${archive}; ${abandon}`;
  return `jig item abandon ${i.id} --reason TEXT --yes deletes the branch ${i.branch}`;
}

/** `jig view show`: one work item in full. */
export function viewShow(given: string | undefined, opts: { json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const c = new JigClient();
    const id = await itemFor(c, 'view show', given);
    if (!id) return EXIT_USAGE;
    const i = await getItem(c, id);
    if (opts.json) {
      printJson(i);
      return EXIT_OK;
    }
    const wt = await worktreeOf(c, id);
    const style = outputStyle();
    const lines = [
      `${paint(style, 'bold', i.id)}  ${i.title}`,
      `status   ${paint(style, statusColour(i.display_status), i.display_status)}${i.stop ? ` (${i.stop.kind}: ${i.stop.reason})` : ''}`,
      `chain    ${i.chain}${i.current_node ? ` at ${i.current_node}` : ''}`,
      `repo     ${i.repo}`,
      ...whereLines(i, wt),
      ...(i.workspace
        ? [
            `members  ${i.workspace.name}: ${i.workspace.members.map((m) => `${m.name} (${m.worktree_path ?? m.repo_path})`).join(', ')}`,
          ]
        : []),
      ...(i.issues ? [`issues   ${i.issues.map(issueLine).join(', ')}`] : []),
      ...(i.dependencies && i.dependencies.length > 0
        ? [`after    ${i.dependencies.map((d) => `${d.id} ${d.title} (${d.status})`).join(', ')}`]
        : []),
      ...(i.waiting_on && i.waiting_on.length > 0
        ? [`waits on ${i.waiting_on.map((d) => `${d.id} (${d.status})`).join(', ')}`]
        : []),
      ...(i.dependents && i.dependents.length > 0
        ? [`before   ${i.dependents.map((d) => `${d.id} ${d.title} (${d.status})`).join(', ')}`]
        : []),
      `budget   $${usdText(i.budget_cap.spent_usd)} of ${i.budget_cap.cap_usd === null ? 'no cap' : `$${usdText(i.budget_cap.cap_usd)} (${i.budget_cap.key})`}`,
    ];
    if (i.stop?.suggested_action)
      lines.push(`next     ${i.stop.suggested_action.action}: ${i.stop.suggested_action.reason}`);
    const hint = endedHint(i, wt);
    if (hint) lines.push(`next     ${hint}`);
    if (i.description) lines.push('', i.description);
    process.stdout.write(`${lines.join('\n')}\n`);
    return EXIT_OK;
  });
}
