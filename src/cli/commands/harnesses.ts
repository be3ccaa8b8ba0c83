import type { Command } from 'commander';
import { later } from '../lazy.js';

/** `jig admin harnesses [ID]`: which agent CLIs are set up, installed, and what they can take. */
export function registerHarnesses(admin: Command): void {
  admin
    .command('harnesses')
    .argument('[id]', 'one harness')
    .description(
      'list the harnesses: provider, installed or not, version; with an id, that one and its provider',
    )
    .option('--json', 'print the API answer')
    .action(later(() => import('./harnesses-actions.js'), 'adminHarnesses'));
}
