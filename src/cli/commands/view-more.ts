import type { Command } from 'commander';
import { runVerb } from '../output.js';
import { unavailable } from './view-target.js';

/*
 * Read verbs whose routes come with later issues: each exists with its flags and help, and fails
 * saying so (exit 1) until the route does.
 */

const REVIEW = 'review threads';

export function registerViewMore(view: Command): void {
  view
    .command('threads')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description("the item's review threads")
    .option('--open', 'only threads not resolved')
    .option('--json', 'print the API answer')
    .action(() => runVerb(async () => unavailable('view threads', REVIEW)));

  view
    .command('search')
    .argument('<query>', 'words to look for')
    .description("search items' titles, descriptions, documents and events")
    .option('--limit <n>', 'at most this many hits', '20')
    .option('--json', 'print the API answer')
    .action(() => runVerb(async () => unavailable('view search', 'the search index')));
}
