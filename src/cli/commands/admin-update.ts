import { Option, type Command } from 'commander';
import { CHANNELS } from '../../core/update/versions.js';
import { later } from '../lazy.js';

/**
 * `jig admin update`: the server asks the release feed (so the answer is cached for the board too);
 * an install happens only with --yes, through npm, which is how Jig is installed.
 */
export function registerUpdate(admin: Command): void {
  admin
    .command('update')
    .description(
      'check the release feed for a newer Jig (JIG_UPDATE_FEED, else the npm registry) and, with --yes, install it with npm',
    )
    .addOption(
      new Option('--channel <name>', 'release channel (dist-tag: stable=latest, rc, beta, alpha)')
        .choices(CHANNELS)
        .default('stable'),
    )
    .option('--cached', 'show the last check the server made; ask the feed nothing')
    .option('-y, --yes', 'install the newer version (`npm install -g <package>@<version>`)')
    .option(
      '--force',
      "with --yes: install the channel's newest even when it is not newer (a reinstall, or a step back from a pre-release)",
    )
    .option('--restart', 'with --yes: restart the server once installed (as `jig admin restart -y`)')
    .option('--json', 'print the raw API answer')
    .action(later(() => import('./admin-update-actions.js'), 'adminUpdate'));
}
