import type { Command } from 'commander';
import { runVerb } from '../output.js';
import { unavailable } from './view-target.js';

/*
 * Read verbs whose routes come with later issues: each exists with its flags and help, and fails
 * saying so (exit 1) until the route does. `view diff` and `view compare` read the item's changes
 * from the server (never a local git of a worktree that could be on another machine).
 */

const REVIEW = 'the review routes: diffs, compares and threads';
const COMPARE_POINTS = 'base, attempt:N, last_review or latest';

export function registerViewMore(view: Command): void {
  view
    .command('diff')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description("the item's changes against its base")
    .option('--stat', 'a diffstat only')
    .option('--name-only', 'changed file names only')
    .option('-w, --ignore-all-space', 'ignore whitespace')
    .option('--no-pager', 'print straight to stdout')
    .option('--json', 'print the API answer')
    .action(() => runVerb(async () => unavailable('view diff', REVIEW)));

  view
    .command('threads')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description("the item's review threads")
    .option('--open', 'only threads not resolved')
    .option('--json', 'print the API answer')
    .action(() => runVerb(async () => unavailable('view threads', REVIEW)));

  view
    .command('compare')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description('the changes between two points of the item')
    .option('--from <point>', `one of ${COMPARE_POINTS}`, 'base')
    .option('--to <point>', `one of ${COMPARE_POINTS}`, 'latest')
    .option('--nodes <list>', 'only changes made by these nodes (comma-separated)')
    .option('--stat', 'a diffstat only')
    .option('--name-only', 'changed file names only')
    .option('-w, --ignore-all-space', 'ignore whitespace')
    .option('--json', 'print the API answer')
    .action(() => runVerb(async () => unavailable('view compare', REVIEW)));

  view
    .command('search')
    .argument('<query>', 'words to look for')
    .description("search items' titles, descriptions, documents and events")
    .option('--limit <n>', 'at most this many hits', '20')
    .option('--json', 'print the API answer')
    .action(() => runVerb(async () => unavailable('view search', 'the search index')));
}
