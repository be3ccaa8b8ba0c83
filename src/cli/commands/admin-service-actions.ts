import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../client/atomic-file.js';
import { jigHome } from '../../client/discover.js';
import { isAlive, readLocalServer } from '../../client/local-server.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, runVerb } from '../output.js';
import { jigBinPath } from './admin-server-actions.js';
import {
  afterRemoveCommands,
  loadCommands,
  serviceFile,
  servicePlatform,
  unloadCommands,
  unitPath,
  unsafeServiceValue,
  type ServicePlatform,
} from './admin-service-files.js';

/** Runs each command in order; the first that fails ends the run and says why. */
function runAll(commands: string[][]): string | null {
  for (const [cmd = '', ...args] of commands) {
    const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.error) return `${cmd}: ${r.error.message}`;
    if (r.status !== 0) return `\`${[cmd, ...args].join(' ')}\` exited ${r.status}: ${r.stderr.trim()}`;
  }
  return null;
}

function platformOf(given: string | undefined): ServicePlatform {
  const p = servicePlatform(given ?? process.platform);
  if (p === null)
    throw new Error(
      `no service manager Jig knows on ${process.platform}; run \`jig admin start --detach\` at login`,
    );
  return p;
}

/** `jig admin install-service`. */
export function adminInstallService(opts: { dryRun?: boolean; platform?: string }): Promise<void> {
  return runVerb(async () => {
    const platform = platformOf(opts.platform);
    const path = unitPath(platform);
    const spec = {
      node: process.execPath,
      bin: jigBinPath,
      jigHome: jigHome(),
      path: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    };
    const bad = unsafeServiceValue(spec);
    if (bad) {
      process.stderr.write(
        `jig: ${bad.name} holds a control character (${JSON.stringify(bad.value)}), which a service file cannot carry; fix it and run install-service again\n`,
      );
      return EXIT_USAGE;
    }
    const text = serviceFile(platform, spec);
    const commands = loadCommands(platform, path);
    if (opts.dryRun) {
      process.stdout.write(`# ${path}\n${text}\n# then:\n${commands.map((c) => c.join(' ')).join('\n')}\n`);
      return EXIT_OK;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, text, 0o644);
    const failed = runAll(commands);
    if (failed) {
      process.stderr.write(`jig: wrote ${path}, but loading it failed: ${failed}\n`);
      return EXIT_FAIL;
    }
    process.stdout.write(`installed ${path}; the service runs \`jig serve\` now and at each login\n`);
    const own = readLocalServer();
    if (own && isAlive(own.pid))
      process.stderr.write(
        `note: a server started by hand still runs (pid ${own.pid}); the service's own starts once it stops: \`jig admin stop\`\n`,
      );
    return EXIT_OK;
  });
}

/** `jig admin uninstall-service`. */
export function adminUninstallService(opts: { platform?: string }): Promise<void> {
  return runVerb(async () => {
    const platform = platformOf(opts.platform);
    const path = unitPath(platform);
    if (!existsSync(path)) {
      process.stderr.write(`jig: no service is installed (${path} does not exist)\n`);
      return EXIT_FAIL;
    }
    // A unit already stopped or unknown to the manager must not keep its file around.
    const unloadFailed = runAll(unloadCommands(platform, path));
    rmSync(path, { force: true });
    const reloadFailed = runAll(afterRemoveCommands(platform));
    process.stdout.write(`removed ${path}; the server no longer starts at login\n`);
    const failed = unloadFailed ?? reloadFailed;
    if (failed) process.stderr.write(`note: ${failed}\n`);
    return EXIT_OK;
  });
}
