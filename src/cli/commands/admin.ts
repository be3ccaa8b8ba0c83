import type { Command } from 'commander';
import { later } from '../lazy.js';
import { registerHarnesses } from './harnesses.js';
import { registerAddon } from './admin-addon.js';
import { registerDoctor } from './admin-doctor.js';
import { registerServerVerbs } from './admin-server.js';
import { registerServiceVerbs } from './admin-service.js';
import { registerUpdate } from './admin-update.js';
import { registerMcp } from './admin-mcp.js';
import { registerAdminLater } from './admin-later.js';
import { registerPermissionHook } from './admin-permission-hook.js';
import { registerPlugin } from './admin-plugin.js';
import { registerSchedules } from './schedules.js';
import { registerTemplates } from './templates.js';

export function registerAdmin(program: Command): void {
  const admin = program.command('admin').description("run this machine's Jig server");
  registerServerVerbs(admin);
  registerHarnesses(admin);
  registerMcp(admin);
  registerPermissionHook(admin);

  admin
    .command('health')
    .description('show the server status; exits 1 when degraded or not running')
    .option('--json', 'print the raw API answer')
    .action(later(() => import('./admin-actions.js'), 'adminHealth'));

  admin
    .command('reload')
    .description('reread library, chains, policy and intake; exits 1 when a file is refused')
    .option('--json', 'print the raw API answer')
    .action(later(() => import('./admin-actions.js'), 'adminReload'));

  registerDoctor(admin);
  registerUpdate(admin);
  registerServiceVerbs(admin);
  registerSchedules(admin);
  registerTemplates(admin);
  registerAddon(admin);
  registerPlugin(admin);
  registerAdminLater(admin);
}
