import type { Command } from 'commander';
import { later } from '../lazy.js';
import { registerViewDocs } from './view-docs.js';
import { registerViewEvents } from './view-events.js';
import { registerViewList } from './view-list.js';
import { registerViewLogs } from './view-logs.js';
import { registerViewDiff } from './view-diff.js';
import { registerViewThreads } from './view-threads.js';
import { registerViewMore } from './view-more.js';
import { registerViewWatch } from './view-watch.js';

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
    .description('one work item in full: where its branch and worktree are, and what to do next')
    .option('--json', 'print the API answer')
    .action(later(() => import('./view-actions.js'), 'viewShow'));

  registerViewEvents(view);
  registerViewLogs(view);
  registerViewDocs(view);
  registerViewDiff(view);
  registerViewThreads(view);
  registerViewMore(view);
  registerViewWatch(view);
}
