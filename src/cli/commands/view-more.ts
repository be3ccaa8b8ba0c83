import type { Command } from 'commander';
import { runVerb } from '../output.js';
import { unavailable } from './view-target.js';

/*
 * Read verbs whose routes come with later issues: each exists with its flags and help, and fails
 * saying so (exit 1) until the route does.
 */

export function registerViewMore(view: Command): void {
  view
    .command('search')
    .argument('<query>', 'words to look for')
    .description("search items' titles, descriptions, documents and events")
    .option('--limit <n>', 'at most this many hits', '20')
    .option('--json', 'print the API answer')
    .action(() => runVerb(async () => unavailable('view search', 'the search index')));
}
