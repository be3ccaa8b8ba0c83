import type { Command } from 'commander';
import { later } from '../lazy.js';

export function registerSchedules(admin: Command): void {
  admin
    .command('schedules')
    .description(
      'list the schedules that run (intake.yaml, and triggers left in policy.yaml) and when each fires next',
    )
    .option('--json', 'print the raw API answer')
    .action(later(() => import('./schedules-actions.js'), 'adminSchedules'));
}
