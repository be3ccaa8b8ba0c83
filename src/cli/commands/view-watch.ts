import type { Command } from 'commander';
import { STATUS_NAMES } from '../contract-names.js';
import { later } from '../lazy.js';

/**
 * A live board on the terminal: `view list` redrawn whenever an event is stored (at most every
 * 150 ms). It reads the same routes as `view list` and the event stream; Ctrl-C or q quits (exit 0).
 */
export function registerViewWatch(view: Command): void {
  view
    .command('watch')
    .description('a live board in the terminal: the list, redrawn as events arrive (Ctrl-C or q quits)')
    .option('--status <list>', `comma-separated: ${STATUS_NAMES.join(', ')}`)
    .option('--repo <path|name>', 'only this repository')
    .option('--all', 'every repository, not only the one you are in')
    .option('--chain <id>', 'only this chain')
    .option('--include-abandoned', 'abandoned items too (left out unless --status names them)')
    .option('--limit <n>', 'at most this many', '50')
    .action(later(() => import('./view-watch-actions.js'), 'viewWatch'));
}
