import type { Command } from 'commander';
import { later } from '../lazy.js';

/** `jig admin harnesses [ID]`: which agent CLIs are set up, installed, and what they can take. */
export function registerHarnesses(admin: Command): void {
  const harnesses = admin
    .command('harnesses')
    .argument('[id]', 'one harness')
    .description(
      'list the harnesses: provider, installed or not, version; with an id, that one and its provider',
    )
    .option('--json', 'print the API answer')
    .action(later(() => import('./harnesses-actions.js'), 'adminHarnesses'));
  harnesses
    .command('test')
    .argument('<id>', 'a harness of harnesses.yaml')
    .description(
      "run the harness's CLI once against Jig's mock model server (a throwaway repository, a private HOME) and print what Jig read from its stream; exit 1 when something a task needs did not come through",
    )
    .option('--timeout <seconds>', 'end the CLI after this long (5-600, default 120)')
    .option('--keep', "keep the run's folder (under run/harness-tests/) to look at")
    .option('--json', 'print the API answer')
    .action(later(() => import('./harness-test-actions.js'), 'adminHarnessTest'));
}
