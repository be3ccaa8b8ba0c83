import type { Command } from 'commander';
import { JigClient } from '../../client/http.js';
import { getItem } from '../../client/items.js';
import { EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { outputStyle, paint, statusColour } from '../table.js';
import { registerViewDocs } from './view-docs.js';
import { registerViewEvents } from './view-events.js';
import { registerViewList } from './view-list.js';
import { registerViewLogs } from './view-logs.js';
import { registerViewDiff } from './view-diff.js';
import { registerViewThreads } from './view-threads.js';
import { registerViewMore } from './view-more.js';
import { itemFor } from './view-target.js';
import { registerViewWatch } from './view-watch.js';

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

export function registerView(program: Command): void {
  const view = program
    .command('view')
    .description(
      'read work items: list, show, events, logs, documents (the ID defaults to the worktree you are in)',
    );

  registerViewList(view);

  view
    .command('show')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description('one work item in full')
    .option('--json', 'print the API answer')
    .action((given: string | undefined, opts: { json?: boolean }) =>
      runVerb(async () => {
        const c = new JigClient();
        const id = await itemFor(c, 'view show', given);
        if (!id) return EXIT_USAGE;
        const i = await getItem(c, id);
        if (opts.json) {
          printJson(i);
          return EXIT_OK;
        }
        const style = outputStyle();
        const lines = [
          `${paint(style, 'bold', i.id)}  ${i.title}`,
          `status   ${paint(style, statusColour(i.display_status), i.display_status)}${i.stop ? ` (${i.stop.kind}: ${i.stop.reason})` : ''}`,
          `chain    ${i.chain}${i.current_node ? ` at ${i.current_node}` : ''}`,
          `repo     ${i.repo} on ${i.branch}`,
          ...(i.workspace
            ? [
                `members  ${i.workspace.name}: ${i.workspace.members.map((m) => `${m.name} (${m.worktree_path ?? m.repo_path})`).join(', ')}`,
              ]
            : []),
          ...(i.issues ? [`issues   ${i.issues.map(issueLine).join(', ')}`] : []),
          `budget   $${i.budget_cap.spent_usd.toFixed(2)} of ${i.budget_cap.cap_usd === null ? 'no cap' : `$${i.budget_cap.cap_usd.toFixed(2)} (${i.budget_cap.key})`}`,
        ];
        if (i.stop?.suggested_action)
          lines.push(`next     ${i.stop.suggested_action.action}: ${i.stop.suggested_action.reason}`);
        if (i.description) lines.push('', i.description);
        process.stdout.write(`${lines.join('\n')}\n`);
        return EXIT_OK;
      }),
    );

  registerViewEvents(view);
  registerViewLogs(view);
  registerViewDocs(view);
  registerViewDiff(view);
  registerViewThreads(view);
  registerViewMore(view);
  registerViewWatch(view);
}
