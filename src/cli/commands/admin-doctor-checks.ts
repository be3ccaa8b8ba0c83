import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, statfsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { AccessFile } from '../../contract/config/access.js';
import type { HealthAnswer } from '../../contract/health.js';
import type { InstalledAddon } from '../../contract/addons-api.js';
import { getHealth } from '../../client/admin.js';
import { checkUpdates, listAddons } from '../../client/addons.js';
import { jigHome } from '../../client/discover.js';
import { listHarnesses } from '../../client/harnesses.js';
import { JigClient } from '../../client/http.js';
import { configDirOf } from '../../client/local-access.js';
import { servicePath } from './admin-service-files.js';
import { databaseRows } from './admin-doctor-database.js';
import { sandboxRow } from './admin-doctor-sandbox.js';

import type { DoctorRow, RowStatus } from './admin-doctor-row.js';

export type { DoctorRow, RowStatus } from './admin-doctor-row.js';

const GiB = 1024 ** 3;
/** Below this a worktree of a large repository may not fit; below the lower one, none should be cut. */
const DISK_WARN_BYTES = 5 * GiB;
const DISK_FAIL_BYTES = 1 * GiB;

const row = (check: string, status: RowStatus, detail: string, fix: string | null = null): DoctorRow => ({
  check,
  status,
  detail,
  fix,
});

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** The server: it answers, it is this home's, and its config loads. */
async function serverRows(
  client: JigClient,
  home: string,
): Promise<{ rows: DoctorRow[]; health: HealthAnswer | null }> {
  let health: HealthAnswer;
  try {
    health = await getHealth(client);
  } catch (err) {
    return {
      rows: [
        row(
          'server',
          'fail',
          `no Jig server answers at ${client.server.url}: ${(err as Error).message}`,
          'start it: `jig admin start --detach` (or `jig admin install-service` to run it at login)',
        ),
      ],
      health: null,
    };
  }
  const rows = [
    row(
      'server',
      'pass',
      `jig ${health.version} at ${client.server.url} (pid ${health.pid}, up ${Math.round(health.uptime_s)}s)`,
    ),
  ];
  if (resolve(health.run_dir) !== resolve(home, 'run'))
    rows.push(
      row(
        'server home',
        'warn',
        `the server answering runs on ${health.run_dir}, not on this CLI's home ${home}`,
        'set JIG_HOME (or JIG_URL) so the CLI and the server agree',
      ),
    );
  if (health.installed !== health.version)
    rows.push(
      row(
        'server version',
        'warn',
        `running ${health.version}, installed ${health.installed}`,
        'restart it to run the installed version: `jig admin restart`',
      ),
    );
  const invalid = [health.invalid_templates, health.invalid_policy, health.invalid_intake].filter(
    (v): v is string => v !== null,
  );
  rows.push(
    invalid.length === 0
      ? row('config', 'pass', 'library, chains, policy and intake load')
      : row(
          'config',
          'fail',
          invalid.join('; '),
          'fix the file named, then `jig admin reload` (`jig admin templates lint` lists every problem)',
        ),
  );
  return { rows, health };
}

function modeOf(path: string): number | null {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return null;
  }
}

/** run/ is 0700 and each token file 0600: they hold the credentials of the API. */
function homeRows(home: string): DoctorRow[] {
  const runDir = join(home, 'run');
  const mode = modeOf(runDir);
  if (mode === null)
    return [
      row('home', 'warn', `${runDir} does not exist yet`, 'start the server once: it creates its home'),
    ];
  const problems: string[] = [];
  const fixes: string[] = [];
  if ((mode & 0o077) !== 0) {
    problems.push(`${runDir} is ${mode.toString(8)} (others can read it)`);
    fixes.push(`chmod 700 ${runDir}`);
  }
  for (const name of ['mcp-token', 'trigger-token']) {
    const p = join(runDir, name);
    const m = modeOf(p);
    if (m !== null && (m & 0o077) !== 0) {
      problems.push(`${p} is ${m.toString(8)}`);
      fixes.push(`chmod 600 ${p}`);
    }
  }
  return problems.length === 0
    ? [row('home', 'pass', `${home}: run/ is private, token files are 0600`)]
    : [row('home', 'fail', problems.join('; '), fixes.join(' && '))];
}

function gitConfig(key: string): string | null {
  try {
    const v = execFileSync('git', ['config', '--get', key], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return v === '' ? null : v;
  } catch {
    return null;
  }
}

/** Tasks commit, so an item's first start stops without a git identity. */
function gitRow(): DoctorRow {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
  } catch {
    return row('git', 'fail', 'git is not on PATH', 'install git');
  }
  const name = gitConfig('user.name');
  const email = gitConfig('user.email');
  if (name && email) return row('git identity', 'pass', `${name} <${email}>`);
  const missing = [name ? null : 'user.name', email ? null : 'user.email'].filter((v) => v !== null);
  return row(
    'git identity',
    'fail',
    `git has no ${missing.join(' or ')}: an item stops at its first start`,
    missing.map((k) => `git config --global ${k} "…"`).join(' && '),
  );
}

async function harnessRows(client: JigClient): Promise<DoctorRow[]> {
  const answer = await listHarnesses(client);
  const rows = answer.harnesses
    .filter((h) => h.enabled)
    .map((h) =>
      h.installed
        ? row(`agent ${h.id}`, 'pass', `${h.executable} ${h.version ?? '(no version)'} at ${h.path ?? '?'}`)
        : row(
            `agent ${h.id}`,
            'warn',
            `${h.executable} is not installed: chains with ${h.id} tasks stop at those tasks`,
            `install the ${h.provider} CLI, or file items on the \`manual\` chain, which runs no agent`,
          ),
    );
  return rows.length > 0
    ? rows
    : [row('agents', 'warn', 'no harness is enabled in harnesses.yaml', 'enable one in harnesses.yaml')];
}

/** Installed add-ons: each loads (a disabled one is a choice, not a problem). */
async function addonsRow(client: JigClient): Promise<DoctorRow> {
  const { addons } = await listAddons(client);
  if (addons.length === 0) return row('addons', 'pass', 'none installed');
  const first = (a: InstalledAddon): string => {
    const p = a.problems[0];
    if (a.state === 'missing') return 'its pinned version is not in the content store yet (fetched at start)';
    return p ? `${p.file}${p.line === null ? '' : `:${p.line}`}: ${p.message}` : 'does not load';
  };
  const broken = addons.filter((a) => a.state === 'problems' || a.state === 'missing');
  const disabled = addons.filter((a) => a.state === 'disabled').map((a) => a.namespace);
  if (broken.length === 0)
    return row(
      'addons',
      'pass',
      `${addons.length} installed, all load${disabled.length ? ` (disabled: ${disabled.join(', ')})` : ''}`,
    );
  const failing = broken.some((a) => a.state === 'problems');
  return row(
    'addons',
    failing ? 'fail' : 'warn',
    broken.map((a) => `${a.namespace}: ${first(a)}`).join('; '),
    failing
      ? 'an add-on with a problem offers nothing: fix what it needs (harnesses.yaml), `jig admin addon update` it, or `jig admin addon disable` it'
      : 'restart the server to fetch it at its pinned commit: `jig admin restart`',
  );
}

/** Doctor waits this long for the collections to be fetched before it says they were not checked. */
const UPDATES_WAIT_MS = 20_000;

/** Updates waiting for installed add-ons, from each collection fetched now. */
async function addonUpdatesRow(client: JigClient): Promise<DoctorRow> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((res) => {
    timer = setTimeout(() => res(null), UPDATES_WAIT_MS);
  });
  const a = await Promise.race([checkUpdates(client), late]).finally(() => clearTimeout(timer));
  if (a === null)
    return row(
      'addon updates',
      'warn',
      `not checked: the collections were not fetched within ${UPDATES_WAIT_MS / 1000}s`,
    );
  const parts: string[] = [];
  if (a.updates.length > 0)
    parts.push(
      `${a.updates.length} waiting: ${a.updates.map((u) => `${u.namespace} ${u.from} → ${u.to}`).join(', ')}, run \`jig admin addon update\``,
    );
  for (const e of a.errors) parts.push(`collection ${e.collection} cannot be read: ${e.message}`);
  if (parts.length === 0) return row('addon updates', 'pass', 'none waiting');
  return row(
    'addon updates',
    'warn',
    parts.join('; '),
    a.updates.length > 0
      ? 'read and apply them: `jig admin addon update`'
      : 'check the collection’s source: `jig admin addon collection list`',
  );
}

function diskRow(home: string): DoctorRow {
  // The worktrees folder may not exist yet; its nearest existing parent is on the same disk.
  let dir = join(home, 'run', 'worktrees');
  while (!existsSync(dir) && dir !== resolve(dir, '..')) dir = resolve(dir, '..');
  try {
    const s = statfsSync(dir);
    const free = s.bavail * s.bsize;
    const shown = `${(free / GiB).toFixed(1)} GiB free for worktrees (${dir})`;
    if (free < DISK_FAIL_BYTES)
      return row('disk', 'fail', shown, 'free space, or archive finished items to reclaim their worktrees');
    if (free < DISK_WARN_BYTES)
      return row('disk', 'warn', shown, 'free space, or archive finished items to reclaim their worktrees');
    return row('disk', 'pass', shown);
  } catch (err) {
    return row('disk', 'warn', `cannot read free space: ${(err as Error).message}`);
  }
}

function readAccessFile(): AccessFile | null {
  try {
    return AccessFile.parse(parse(readFileSync(join(configDirOf(), 'access.yaml'), 'utf8')) ?? {});
  } catch {
    return null;
  }
}

/** Off loopback, the spec wants a password (remote callers are refused without one) and allowed_hosts. */
function networkRows(health: HealthAnswer | null): DoctorRow[] {
  const access = readAccessFile();
  const bind = health?.bind ?? access?.bind ?? '127.0.0.1';
  if (LOOPBACK.has(bind)) return [row('network', 'pass', `bound to ${bind} (this machine only)`)];
  const rows: DoctorRow[] = [];
  if (!access?.password_hash)
    rows.push(
      row(
        'network',
        'fail',
        `bound to ${bind} with no password: every remote caller is refused`,
        'set one: `jig admin password`',
      ),
    );
  else rows.push(row('network', 'pass', `bound to ${bind}; remote callers need the password or a token`));
  if ((access?.allowed_hosts.length ?? 0) === 0)
    rows.push(
      row(
        'allowed hosts',
        'warn',
        `bound to ${bind} with an empty allowed_hosts: browsers reach Jig only by a loopback name`,
        'list the names browsers use in access.yaml `allowed_hosts`',
      ),
    );
  return rows;
}

function serviceRow(): DoctorRow {
  const path = servicePath(process.platform);
  if (path === null) return row('service', 'warn', `no service manager Jig knows on ${process.platform}`);
  return existsSync(path)
    ? row('service', 'pass', `installed: ${path}`)
    : row(
        'service',
        'warn',
        'not installed: the server does not start at login',
        '`jig admin install-service`',
      );
}

/** Every row, in the order a person would fix them. */
export async function doctorRows(): Promise<DoctorRow[]> {
  const home = jigHome();
  const client = new JigClient();
  const server = await serverRows(client, home);
  const rows = [...server.rows, ...homeRows(home), gitRow()];
  if (server.health) {
    rows.push(...databaseRows(server.health));
    try {
      rows.push(...(await harnessRows(client)));
    } catch (err) {
      rows.push(row('agents', 'warn', `cannot list harnesses: ${(err as Error).message}`));
    }
    for (const [check, fn] of [
      ['addons', addonsRow],
      ['addon updates', addonUpdatesRow],
    ] as const) {
      try {
        rows.push(await fn(client));
      } catch (err) {
        rows.push(row(check, 'warn', `cannot be checked: ${(err as Error).message}`));
      }
    }
  } else rows.push(row('agents', 'warn', 'not checked: no server answers'));
  rows.push(diskRow(home), sandboxRow(), ...networkRows(server.health), serviceRow());
  return rows;
}
