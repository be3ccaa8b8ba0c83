import { existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { gitScript } from '../git/git.js';
import { resolveExecutable } from '../harness/installed.js';
import { packageRoot } from '../package-root.js';
import type { SandboxCredential } from '../../contract/config/sandbox.js';
import { ensureCa } from './ca.js';
import { copyInLogins } from './logins.js';
import { allowedHosts, relayedUrl, type JailKind, type SandboxRequest } from './request.js';
import type { Mount, SandboxPlan } from './plan.js';
import { planFiles } from './plan.js';

/** The sandbox program, as built (npm run build). */
export const SANDBOX_PROGRAM = join(packageRoot, 'dist', 'runtime', 'sandbox', 'sandbox-main.js');

/** A session's sandbox folder. */
export const sandboxDir = (runDir: string, sessionId: string): string =>
  join(runDir, 'sandbox', 'sessions', sessionId);

/**
 * Makes a session's sandbox folder and answers where its result file and fix brief go: inside the
 * jail's one writable folder of Jig's (`out/`), at the same path inside and out.
 */
export function sandboxOutputs(runDir: string, sessionId: string): { resultPath: string; briefPath: string } {
  const f = planFiles(sandboxDir(runDir, sessionId));
  for (const d of [f.inside, f.out]) mkdirSync(d, { recursive: true, mode: 0o700 });
  return { resultPath: join(f.out, 'result.json'), briefPath: join(f.out, 'brief.md') };
}

const SYSTEM_PREFIXES = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/', '/etc/', '/opt/'];
const underSystem = (p: string): boolean => SYSTEM_PREFIXES.some((s) => p.startsWith(s));

/**
 * The folder that holds an executable and what it loads: an npm package's install root (the folder
 * above its outermost node_modules), else the executable's own folder. Null when the system
 * folders, visible anyway, hold it.
 */
function installRoot(executable: string): string | null {
  let real: string;
  try {
    real = realpathSync(executable);
  } catch {
    return null;
  }
  if (underSystem(real)) return null;
  const nm = real.indexOf(`${sep}node_modules${sep}`);
  return nm > 0 ? real.slice(0, nm) : dirname(real);
}

/**
 * The install of the node running Jig: its whole prefix when it is one (`…/bin/node` beside
 * `…/lib/node_modules`, as nvm, fnm and volta lay it out), so `npm` and `npx`, links into that
 * prefix's lib/, work in the jail too; else its folder as for any program.
 */
export function nodePrefix(executable: string): string | null {
  const root = installRoot(executable);
  if (root === null || !root.endsWith(`${sep}bin`)) return root;
  const prefix = dirname(root);
  return existsSync(join(prefix, 'lib', 'node_modules')) ? prefix : root;
}

/** A task's git facts: the common folder its worktree writes objects and refs to, the server's identity. */
const FACTS = `
printf '%s\\0' "$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null)"
printf '%s\\0' "$(git config --global --get user.name 2>/dev/null)"
printf '%s\\0' "$(git config --global --get user.email 2>/dev/null)"
`;

async function gitFacts(cwd: string): Promise<{ common: string | null; name: string; email: string }> {
  const r = await gitScript(cwd, FACTS, [], 10_000);
  const [common = '', name = '', email = ''] = r.stdout.split('\0');
  return { common: common === '' ? null : common, name, email };
}

/** Where an item's private HOME is (kept between its tasks, removed with its worktree). */
export const itemHomeDir = (runDir: string, itemId: string): string =>
  join(runDir, 'sandbox', 'homes', itemId);

/** The item's private HOME, made once: a git identity copied from the server's, nothing else. */
function itemHome(runDir: string, itemId: string, identity: { name: string; email: string }): string {
  const home = itemHomeDir(runDir, itemId);
  if (!existsSync(home)) {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const user = [
      identity.name && `\tname = ${identity.name}`,
      identity.email && `\temail = ${identity.email}`,
    ]
      .filter(Boolean)
      .join('\n');
    if (user !== '') writeFileSync(join(home, '.gitconfig'), `[user]\n${user}\n`, { mode: 0o600 });
  }
  return home;
}

/**
 * Writes a session's plan (its folder under run/sandbox/sessions/) and answers what to launch:
 * the worktree(s) and their git folder read-write, the item's private HOME, the program's install
 * folder and files Jig named in its arguments read-only, and the result folder read-write.
 */
export async function prepareSandbox(o: {
  runDir: string;
  sessionId: string;
  itemId: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  sandbox: SandboxRequest;
}): Promise<string[]> {
  const dir = sandboxDir(o.runDir, o.sessionId);
  const f = planFiles(dir);
  const facts = await gitFacts(o.cwd);
  const home = itemHome(o.runDir, o.itemId, facts);
  const mounts: Mount[] = [];
  const add = (path: string, writable: boolean): void => {
    const p = resolve(path);
    if (!mounts.some((m) => m.path === p)) mounts.push({ path: p, writable });
  };
  add(o.cwd, true);
  if (facts.common !== null) add(facts.common, true);
  for (const w of o.sandbox.worktrees.filter((w) => resolve(w) !== resolve(o.cwd))) {
    add(w, true);
    const common = (await gitFacts(w)).common;
    if (common !== null) add(common, true);
  }
  add(home, true);
  add(f.inside, false);
  add(f.out, true);
  const exe = resolveExecutable(o.argv[0] ?? '', o.env.PATH ?? process.env.PATH ?? '');
  const root = exe === null ? null : installRoot(exe);
  if (root !== null) add(root, false);
  const node = nodePrefix(process.execPath);
  if (node !== null) add(node, false);
  // Jig's own program, for the `jig` client and MCP server a task runs (not the rest of its folder).
  for (const part of ['package.json', 'bin', 'dist', 'node_modules'])
    if (existsSync(join(packageRoot, part)) && !underSystem(join(packageRoot, part)))
      add(join(packageRoot, part), false);
  // Files Jig wrote for this launch (a prompt, an MCP config) and named in its arguments.
  for (const a of o.argv.slice(1))
    if (isAbsolute(a) && a.startsWith(`${o.runDir}${sep}`) && existsSync(a) && statSync(a).isFile())
      add(a, false);
  const kind = o.sandbox.kind;
  const env: Record<string, string> = { ...o.env };
  if (o.sandbox.logins) copyInLogins(o.sandbox.logins, env, home, dir);
  Object.assign(env, { HOME: home, TMPDIR: '/tmp', JIG_SANDBOX: kind });
  // Where Jig's API is (relayed inside, or the host's loopback on an open network): the home's
  // files that say where are not in the jail.
  const url = relayedUrl(o.sandbox);
  if (url !== null) env.JIG_URL = url;
  const n = o.sandbox.network;
  let network: SandboxPlan['network'] = { mode: 'open' };
  if (n.mode === 'proxied') {
    const secrets = secretsOf(n.credentials, env);
    let tls: { cert: string; key: string } | null = null;
    if (secrets.length > 0) {
      // The jail trusts the home's CA (and only the jail): its programs find it through these.
      const ca = ensureCa(o.runDir);
      add(ca.public, false);
      env.NODE_EXTRA_CA_CERTS = ca.cert;
      for (const k of ['SSL_CERT_FILE', 'CURL_CA_BUNDLE', 'REQUESTS_CA_BUNDLE', 'GIT_SSL_CAINFO'])
        env[k] = ca.bundle;
      tls = { cert: ca.cert, key: ca.key };
    }
    network = {
      mode: 'proxied',
      allow: allowedHosts(n, o.env),
      deny: n.deny,
      jigPort: n.jigPort,
      caller: { item: o.itemId, escalation: o.env.JIG_ESCALATION_TURN === '1' },
      secrets,
      tls,
    };
  }
  const plan: SandboxPlan = {
    kind,
    program: o.sandbox.program,
    container:
      kind === 'bubblewrap'
        ? null
        : {
            image: o.sandbox.image ?? '',
            name: `jig-${o.sessionId}`,
            resources: o.sandbox.resources ?? {},
            runtimeEnv: runtimeEnv(),
            user: { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 },
          },
    argv: o.argv,
    cwd: o.cwd,
    env,
    mounts,
    dir,
    network,
  };
  writeFileSync(f.plan, JSON.stringify(plan), { mode: 0o600 });
  return [process.execPath, SANDBOX_PROGRAM, f.plan];
}

/**
 * The server's variables podman or docker read for themselves (where their configuration, storage
 * and socket are, the rootless user's folders): the runtime runs with these, never the task's.
 */
const RUNTIME_VARS =
  /^(PATH|HOME|USER|LOGNAME|TMPDIR|XDG_[A-Z_]+|CONTAINERS?_[A-Z_]+|DOCKER_[A-Z_]+|DBUS_SESSION_BUS_ADDRESS)$/;

function runtimeEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && RUNTIME_VARS.test(k)) out[k] = v;
  return out;
}

/** The placeholder a task sees in a credential's variable. */
export const placeholder = (name: string): string => `jig-sandbox-placeholder-${name}`;

/**
 * The headers the proxy sets, from the credentials' variables, each replaced in `env` (the jail's
 * environment) by its placeholder. A credential whose variable is not set adds nothing.
 */
function secretsOf(
  credentials: SandboxCredential[],
  env: Record<string, string>,
): { hosts: string[]; header: string; value: string }[] {
  const out: { hosts: string[]; header: string; value: string }[] = [];
  for (const c of credentials) {
    const real = env[c.env];
    // Unset or empty is no secret (an empty key is often set to make a CLI use its own login):
    // left as it is, with no header, as allowedHosts leaves out its hosts.
    if (real === undefined || real === '') continue;
    env[c.env] = placeholder(c.env);
    out.push({
      hosts: c.hosts,
      header: c.header,
      value: (c.format ?? '{value}').replaceAll('{value}', real),
    });
  }
  return out;
}

/** What a session's start event says of its jail (the item page shows it). */
export function sandboxSummary(
  s: SandboxRequest,
  env: Record<string, string>,
): { kind: JailKind; network: string } {
  const n = s.network;
  if (n.mode === 'open') return { kind: s.kind, network: 'unrestricted' };
  const allow = allowedHosts(n, env);
  return { kind: s.kind, network: allow.length === 0 ? 'none' : `allow ${allow.join(', ')}` };
}
