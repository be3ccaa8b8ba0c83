import { Option, type Command } from 'commander';
import { later } from '../lazy.js';

const platformOption = (): Option =>
  // Lets `--dry-run` show the other platform's file (and the tests check both); hidden from help.
  new Option('--platform <p>', 'linux (systemd) or darwin (launchd)').choices(['linux', 'darwin']).hideHelp();

export function registerServiceVerbs(admin: Command): void {
  admin
    .command('install-service')
    .description(
      'run `jig serve` at login: a systemd user unit (Linux, ~/.config/systemd/user/jig.service) or a launchd agent (macOS, ~/Library/LaunchAgents/dev.jig.server.plist), with this node and JIG_HOME',
    )
    .option('--dry-run', 'print the file and the commands; write and run nothing')
    .addOption(platformOption())
    .action(later(() => import('./admin-service-actions.js'), 'adminInstallService'));

  admin
    .command('uninstall-service')
    .description('stop the service and remove the file install-service wrote; exits 1 when none is installed')
    .addOption(platformOption())
    .action(later(() => import('./admin-service-actions.js'), 'adminUninstallService'));
}
