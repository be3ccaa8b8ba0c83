import type { Command } from 'commander';
import { later } from '../lazy.js';
import { portArg } from './serve.js';

export function registerServerVerbs(admin: Command): void {
  admin
    .command('start')
    .description('run the Jig server (bare `jig` does the same); --detach runs it in the background')
    .option('--host <addr>', 'address to bind (else JIG_HOST, then access.yaml bind, then 127.0.0.1)')
    .option('--port <n>', 'port to listen on (else JIG_PORT, then access.yaml port, then 8765)', portArg)
    .option(
      '--detach',
      'start it in the background and return once it answers (output in run/logs/start.log)',
    )
    .action(later(() => import('./admin-server-actions.js'), 'adminStart'));

  admin
    .command('stop')
    .description("stop this home's server (SIGTERM to the pid in run/jig.pid); exits 1 when none runs")
    .action(later(() => import('./admin-server-actions.js'), 'adminStop'));

  admin
    .command('restart')
    .description(
      'restart the server: through its service manager when one runs it, else stop and start it in the background; lists running items and asks first (with no terminal, -y is required); exits 1 when no server runs or you answer no',
    )
    .option('-y, --yes', 'do not ask')
    .action(later(() => import('./admin-server-actions.js'), 'adminRestart'));
}
