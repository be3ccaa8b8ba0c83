import type { Command } from 'commander';
import { later } from '../lazy.js';

export function registerViewThreads(view: Command): void {
  view
    .command('threads')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description("the item's review threads: where, label, state, the agent's claim, the first comment")
    .option('--open', 'only threads not resolved')
    .option('--json', 'print the API answer')
    .action(later(() => import('./view-threads-actions.js'), 'viewThreads'));
}
