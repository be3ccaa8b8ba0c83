import type { Command } from 'commander';
import { SEARCH_KIND_NAMES } from '../contract-names.js';
import { later } from '../lazy.js';

/** `jig view search`: the search index, best first, one hit per two lines. */
export function registerViewMore(view: Command): void {
  view
    .command('search')
    .argument('<query>', 'words to look for (every one must match; the last also as a prefix)')
    .description(
      'search items, their events, review threads, documents, attachments, tracker issues, chains and the library',
    )
    .option('--limit <n>', 'at most this many hits (1-100)', '20')
    .option('--kind <kind>', `only hits of one kind: ${SEARCH_KIND_NAMES.join(', ')}`)
    .option('--json', 'print the API answer')
    .action(later(() => import('./view-more-actions.js'), 'viewSearch'));
}
