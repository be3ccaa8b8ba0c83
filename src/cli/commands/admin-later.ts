import type { Command } from 'commander';
import { later } from '../lazy.js';

/** `jig admin reindex`: rebuilds the search index and follows the rescan to its end. */
export function registerAdminLater(admin: Command): void {
  admin
    .command('reindex')
    .description('rebuild the search index (every item, or one repository’s) and wait for it to finish')
    .option('--repo <path>', 'rescan the items of this connected repository only (default: every one)')
    .option('--json', 'print the final state as the API answers it')
    .action(later(() => import('./admin-later-actions.js'), 'adminReindex'));
}
