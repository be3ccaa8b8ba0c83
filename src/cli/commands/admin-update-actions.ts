import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { UpdateAnswer } from '../../contract/routes/update.js';
import type { Channel } from '../../core/update/versions.js';
import { parseManifest } from '../../contract/package-manifest.js';
import { getHealth } from '../../client/admin.js';
import { jigHome } from '../../client/discover.js';
import { JigClient } from '../../client/http.js';
import { checkUpdate, getUpdate } from '../../client/update.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { packageFile } from '../package-files.js';
import { restart } from './admin-server-actions.js';

interface UpdateOpts {
  channel: Channel;
  cached?: boolean;
  yes?: boolean;
  force?: boolean;
  restart?: boolean;
  json?: boolean;
}

function summary(u: UpdateAnswer): string {
  if (u.latest === null) return `the ${u.channel} channel of ${u.package} has no release on ${u.feed}`;
  if (!u.update_available)
    return `jig ${u.installed} is up to date on the ${u.channel} channel (newest ${u.latest})`;
  return `jig ${u.latest} is available on the ${u.channel} channel (installed ${u.installed})`;
}

/** A release version npm can install as is: no range, tag, URL or option (it goes on npm's argv). */
const VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** This CLI's own npm name: what `--yes` installs, whatever name the answering server reports. */
function ownPackageName(): string | null {
  try {
    return parseManifest(readFileSync(packageFile('package.json'), 'utf8'))?.name ?? null;
  } catch {
    return null;
  }
}

const canonical = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/**
 * Why `--yes` must not install from this answer, or null when it may: the version goes on npm's
 * command line, so it comes only from a server that runs on this CLI's own home and in release shape.
 */
async function refuseInstall(
  client: JigClient,
  latest: string,
): Promise<{ why: string; code: number } | null> {
  if (!VERSION.test(latest))
    return {
      why: `the feed's version ${JSON.stringify(latest)} is not a release version (x.y.z[-pre])`,
      code: EXIT_FAIL,
    };
  const home = jigHome();
  const health = await getHealth(client);
  if (canonical(health.run_dir) !== canonical(join(home, 'run')))
    // A usage error: --yes installs on this machine, for this home's server only.
    return {
      why: `the server at ${client.server.url} runs on ${health.run_dir}, not on this CLI's home ${home}; run it where that server runs, or set JIG_HOME / JIG_URL so they agree`,
      code: EXIT_USAGE,
    };
  return null;
}

/** `jig admin update`. */
export function adminUpdate(opts: UpdateOpts): Promise<void> {
  return runVerb(async () => {
    if ((opts.force || opts.restart) && !opts.yes) {
      process.stderr.write(
        `jig: ${opts.force ? '--force' : '--restart'} goes with --yes (it is about the install)\n`,
      );
      return EXIT_USAGE;
    }
    const client = new JigClient();
    const u = opts.cached ? await getUpdate(client, opts.channel) : await checkUpdate(client, opts.channel);
    if (opts.json) printJson(u);
    else if (u.checked_at === null) process.stdout.write('no check yet; run `jig admin update`\n');
    else process.stdout.write(`${summary(u)}\n`);
    if (u.latest === null || (!u.update_available && !opts.force)) return EXIT_OK;
    if (!opts.yes) {
      if (!opts.json) process.stdout.write(`install it: jig admin update --channel ${u.channel} --yes\n`);
      return EXIT_OK;
    }
    const refused = await refuseInstall(client, u.latest);
    if (refused) {
      process.stderr.write(`jig: not installing: ${refused.why}\n`);
      return refused.code;
    }
    const name = ownPackageName();
    if (name === null) {
      process.stderr.write("jig: not installing: this CLI's package.json does not name its package\n");
      return EXIT_FAIL;
    }
    const spec = `${name}@${u.latest}`;
    process.stderr.write(`running npm install -g ${spec}\n`);
    const npm = process.env.JIG_NPM?.trim() || 'npm';
    const r = spawnSync(npm, ['install', '-g', spec], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.error || r.status !== 0) {
      process.stderr.write(
        `jig: npm install -g ${spec} failed${r.error ? `: ${r.error.message}` : ` (exit ${r.status})`}\n`,
      );
      return EXIT_FAIL;
    }
    if (!opts.restart) {
      process.stdout.write(`installed jig ${u.latest}; restart the server to run it: jig admin restart\n`);
      return EXIT_OK;
    }
    process.stdout.write(`installed jig ${u.latest}\n`);
    return restart({ yes: true });
  });
}
