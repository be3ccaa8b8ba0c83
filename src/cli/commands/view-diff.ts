import type { Command } from 'commander';
import { later } from '../lazy.js';

const COMPARE_POINTS = 'base, attempt:N, last_review or latest';

export function registerViewDiff(view: Command): void {
  view
    .command('diff')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description("the item's changes against its base, uncommitted work included")
    .option('--stat', 'a diffstat only')
    .option('--name-only', 'changed file names only')
    .option('-w, --ignore-all-space', 'ignore whitespace')
    .option('--no-pager', 'print straight to stdout')
    .option('--json', 'print the API answer (every page joined)')
    .action(later(() => import('./view-diff-actions.js'), 'viewDiff'));

  view
    .command('compare')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description('the changes between two points of the item (attempts are listed by --json)')
    .option('--from <point>', `one of ${COMPARE_POINTS}`, 'base')
    .option('--to <point>', `one of ${COMPARE_POINTS}`, 'latest')
    .option('--nodes <list>', 'only files these nodes changed (comma-separated)')
    .option('--stat', 'a diffstat only')
    .option('--name-only', 'changed file names only')
    .option('-w, --ignore-all-space', 'ignore whitespace')
    .option('--no-pager', 'print straight to stdout')
    .option('--json', 'print the API answer (every page joined)')
    .action(later(() => import('./view-diff-actions.js'), 'viewCompare'));
}
