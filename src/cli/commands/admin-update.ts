import { spawnSync } from 'node:child_process';
import { Option, type Command } from 'commander';
import type { UpdateAnswer } from '../../contract/routes/update.js';
import { CHANNELS, type Channel } from '../../core/update/versions.js';
import { JigClient } from '../../client/http.js';
import { checkUpdate, getUpdate } from '../../client/update.js';
import { EXIT_FAIL, EXIT_OK, printJson, runVerb } from '../output.js';

function summary(u: UpdateAnswer): string {
  if (u.latest === null) return `the ${u.channel} channel of ${u.package} has no release on ${u.feed}`;
  if (!u.update_available)
    return `jig ${u.installed} is up to date on the ${u.channel} channel (newest ${u.latest})`;
  return `jig ${u.latest} is available on the ${u.channel} channel (installed ${u.installed})`;
}

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
    .option('--json', 'print the raw API answer')
    .action((opts: { channel: Channel; cached?: boolean; yes?: boolean; json?: boolean }) =>
      runVerb(async () => {
        const client = new JigClient();
        const u = opts.cached
          ? await getUpdate(client, opts.channel)
          : await checkUpdate(client, opts.channel);
        if (opts.json) printJson(u);
        else if (u.checked_at === null) process.stdout.write('no check yet; run `jig admin update`\n');
        else process.stdout.write(`${summary(u)}\n`);
        if (!u.update_available || u.latest === null) return EXIT_OK;
        if (!opts.yes) {
          if (!opts.json) process.stdout.write(`install it: jig admin update --channel ${u.channel} --yes\n`);
          return EXIT_OK;
        }
        const spec = `${u.package}@${u.latest}`;
        process.stderr.write(`running npm install -g ${spec}\n`);
        const npm = process.env.JIG_NPM?.trim() || 'npm';
        const r = spawnSync(npm, ['install', '-g', spec], { stdio: ['ignore', 'inherit', 'inherit'] });
        if (r.error || r.status !== 0) {
          process.stderr.write(
            `jig: npm install -g ${spec} failed${r.error ? `: ${r.error.message}` : ` (exit ${r.status})`}\n`,
          );
          return EXIT_FAIL;
        }
        process.stdout.write(`installed jig ${u.latest}; restart the server to run it: jig admin restart\n`);
        return EXIT_OK;
      }),
    );
}
