import type { Command } from 'commander';
import { later } from '../lazy.js';

export function registerDoctor(admin: Command): void {
  admin
    .command('doctor')
    .description(
      'check this machine: server, home permissions, config, git identity, database and workers, agent CLIs, add-ons and their updates, disk, sandbox (what this machine can jail, and the `policy.yaml` line that turns it on), network exposure, service; exits 1 when a row fails',
    )
    .option('--json', 'print the rows as JSON: [{check, status: pass|warn|fail, detail, fix}]')
    .action(later(() => import('./admin-doctor-actions.js'), 'adminDoctor'));
}
