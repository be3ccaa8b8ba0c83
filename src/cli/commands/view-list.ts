import type { Command } from 'commander';
import { STATUS_NAMES } from '../contract-names.js';
import { later } from '../lazy.js';

export function registerViewList(view: Command): void {
  view
    .command('list')
    .description(
      'list work items, newest first: those of --repo, else of the connected repo you are in, else of every repo',
    )
    .option('--status <list>', `comma-separated: ${STATUS_NAMES.join(', ')}`)
    .option('--repo <path|name>', 'only this repository')
    .option('--all', 'every repository, not only the one you are in')
    .option('--chain <id>', 'only this chain')
    .option('--include-abandoned', 'abandoned items too (left out unless --status names them)')
    .option('--limit <n>', 'at most this many', '100')
    .option('--json', 'print the API answer')
    .action(later(() => import('./view-list-actions.js'), 'viewList'));
}
