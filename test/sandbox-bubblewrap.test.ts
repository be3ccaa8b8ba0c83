import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCa, LeafCertificates } from '../src/runtime/sandbox/ca.js';
import { agentSetup, sessions, setRepoKeys } from './helpers/agents.js';
import { events, fileItem, isAlive, oneCommand, until } from './helpers/engine.js';
import { eventOf } from './helpers/engine-clock.js';
import { holdUntil } from './helpers/hold.js';
import { git } from './helpers/git.js';
import { answering, serverHomeWithKey } from './helpers/answering.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

// Issue 45: tasks of a repo whose sandbox is `kind: bubblewrap` run in a jail, with the real bwrap
// (Debian's bubblewrap; .ci/run installs it). Skipped, with the reason, where bwrap cannot start.

const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', 'true'], {
  encoding: 'utf8',
});
const why =
  probe.error !== undefined
    ? 'bwrap is not installed (apt-get install bubblewrap)'
    : probe.status !== 0
      ? `bwrap cannot start here: ${probe.stderr.trim()}`
      : spawnSync('curl', ['--version']).error !== undefined
        ? 'curl is not installed'
        : '';

const ended = (i: any): boolean => i.status !== 'running' && i.status !== 'queued';
const chain = oneCommand;

const SECRET = 'sk-real-key-the-task-never-sees';

describe.skipIf(why !== '')(`bubblewrap sandbox${why ? ` — skipped: ${why}` : ''}`, () => {
  let jig: JigProcess;
  let repo: string;
  let home: string;
  let serverHome: string;
  let allowed: { server: Server; port: number };
  let refused: { server: Server; port: number };
  let secure: { server: Server; port: number };
  const scratch: string[] = [];
  const serverEnv = (ca: string) => ({ HOME: serverHome, NODE_EXTRA_CA_CERTS: ca });
  let caFile = '';

  beforeAll(async () => {
    serverHome = serverHomeWithKey('Sandbox Test');
    scratch.push(serverHome);
    allowed = await answering('allowed');
    refused = await answering('refused');
    // An HTTPS host with a CA of its own, which the server's process trusts (NODE_EXTRA_CA_CERTS):
    // it stands for a model API.
    const upstreamCa = ensureCa(join(serverHome, 'upstream-ca'));
    caFile = upstreamCa.cert;
    const leaf = new LeafCertificates(
      readFileSync(upstreamCa.cert, 'utf8'),
      readFileSync(upstreamCa.key, 'utf8'),
    ).for('localhost');
    secure = await answering('secure', { cert: leaf.cert, key: leaf.key });
    const probeChain = chain(
      [
        'set +e',
        `cat ${serverHome}/.ssh/id_ed25519 > read-home.txt 2>&1; echo "home=$?" >> report.txt`,
        'cat "$JIG_HOME_SEEN/run/mcp-token" > read-run.txt 2>&1; echo "run=$?" >> report.txt',
        'echo pwned > "$REPO_SEEN/README.md" 2>/dev/null; echo pwned > "$REPO_SEEN/pwned" 2>/dev/null',
        'echo mine > /tmp/mine; echo "tmp=$?" >> report.txt',
        `curl -fsS --max-time 20 -o got-allowed.txt http://127.0.0.1:${allowed.port}/; echo "allowed=$?" >> report.txt`,
        `curl -fsS --max-time 20 -o got-refused.txt http://127.0.0.1:${refused.port}/ 2>/dev/null; echo "refused=$?" >> report.txt`,
        `curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${allowed.port}/ >/dev/null 2>&1; echo "direct=$?" >> report.txt`,
        'echo "home_var=$HOME" >> report.txt',
        // Jig's API, relayed inside at its own port (the `jig` client finds it through JIG_URL).
        `${process.execPath} ${join(process.cwd(), 'bin', 'jig.js')} view show "$JIG_WORK_ITEM_ID" --json > jig-show.json 2> jig-show.err; echo "jig=$?" >> report.txt`,
        // …as its own worker only: a gate decision and the list of items are refused at the relay.
        `echo "api_gate=$(curl -s -o /dev/null -w '%{http_code}' --noproxy '*' -X POST "$JIG_URL/api/work-items/$JIG_WORK_ITEM_ID/gates/spec/approve")" >> report.txt`,
        `echo "api_list=$(curl -s -o /dev/null -w '%{http_code}' --noproxy '*' "$JIG_URL/api/work-items")" >> report.txt`,
        'git add -A && git commit -qm "sandboxed commit"',
      ].join('\n'),
    );
    const secureChain = chain(
      [
        'set +e',
        `curl -fsS --max-time 20 -H "x-api-key: $API_KEY" -o got-secure.txt https://localhost:${secure.port}/v1; echo "secure=$?" >> report.txt`,
        // The CA's key stays outside (only its certificate and the bundle are mounted).
        'cat "$JIG_HOME_SEEN/run/sandbox/ca/ca.key" > /dev/null 2>&1; echo "cakey=$?" >> report.txt',
        'env > env.txt',
        'git add -A && git commit -qm "secure call"',
      ].join('\n'),
    );
    // Holds until the test writes the go-file beside its result file (in the jail's out/ folder).
    const holdChain = chain(
      [
        'set +e',
        `curl -fsS --max-time 20 http://127.0.0.1:${refused.port}/ >/dev/null 2>&1`,
        holdUntil('"$JIG_RESULT_PATH.go"'),
        `curl -fsS --max-time 20 -o after-restart.txt http://127.0.0.1:${allowed.port}/`,
        'git add -A && git commit -qm "after the restart"',
      ].join('\n'),
    );
    ({ jig, repo, home } = await agentSetup(
      { probe: probeChain, secure: secureChain, hold: holdChain },
      { serverEnv: serverEnv(upstreamCa.cert) },
    ));
    setRepoKeys(home, repo, {
      env: { JIG_HOME_SEEN: home, REPO_SEEN: repo, API_KEY: SECRET },
      sandbox: {
        kind: 'bubblewrap',
        // The HTTPS host by name (for the credential) and by address (it resolves to loopback).
        network: { allow: [`127.0.0.1:${allowed.port}`, `127.0.0.1:${secure.port}`] },
        credentials: [{ env: 'API_KEY', hosts: [`localhost:${secure.port}`], header: 'x-api-key' }],
      },
    });
  });

  afterAll(async () => {
    await cleanupAll();
    allowed?.server.close();
    refused?.server.close();
    secure?.server.close();
    for (const d of scratch) rmSync(d, { recursive: true, force: true });
  });

  it('a subprocess task sees its worktree and nothing else of the host, and reaches only the allowed host', async () => {
    const item = await fileItem(jig, repo, 'probe');
    const done = await until(jig, item.id, ended);
    const [s] = await sessions(jig, item.id);
    expect(s, JSON.stringify(done)).toBeDefined();
    // What the task saw, as it committed it on the item's branch.
    const shown = (f: string): string => git(repo, 'show', `${done.branch}:${f}`);
    const report = Object.fromEntries(
      shown('report.txt')
        .trim()
        .split('\n')
        .map((l) => l.split('=')),
    );
    expect(done.status, JSON.stringify({ done, report })).toBe('completed');
    // Not mounted: the server's HOME, Jig's tokens, the repository's own working tree (what the
    // task wrote there went to the jail's own folders, never to the host's files).
    expect(report.home).not.toBe('0');
    expect(report.run).not.toBe('0');
    expect(existsSync(join(repo, 'pwned'))).toBe(false);
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toBe('# demo\n');
    // /tmp is the jail's own.
    expect(report.tmp).toBe('0');
    expect(existsSync('/tmp/mine')).toBe(false);
    // Through the proxy: the allowed address answers, the other is refused; no way around it.
    expect(report.allowed).toBe('0');
    expect(report.refused).not.toBe('0');
    expect(report.direct).not.toBe('0');
    expect(report.home_var).toMatch(new RegExp(`${home}/run/sandbox/homes/${item.id}$`));
    expect(shown('got-allowed.txt')).toBe('allowed');
    expect(report.jig, shown('jig-show.err')).toBe('0');
    expect([report.api_gate, report.api_list]).toEqual(['403', '403']);
    expect(JSON.parse(shown('jig-show.json'))).toMatchObject({ id: item.id, status: 'running' });
    expect(shown('read-home.txt')).toMatch(/No such file or directory/);
    expect(git(repo, 'log', '-1', '--format=%s|%an', done.branch)).toBe('sandboxed commit|Sandbox Test');

    const evs = await events(jig, item.id);
    const started = evs.find((e) => e.type === 'worker_session_started');
    expect(started.payload.sandbox).toEqual({
      kind: 'bubblewrap',
      network: `allow 127.0.0.1:${allowed.port}, 127.0.0.1:${secure.port}, localhost:${secure.port}`,
    });
    const denied = evs.filter((e) => e.type === 'sandbox_egress_denied');
    expect(denied.map((e) => e.payload)).toEqual([
      {
        session: s.id,
        task: 'only.main.t',
        host: '127.0.0.1',
        port: refused.port,
        reason: 'not in the sandbox network allow list',
        count: 1,
        at: expect.any(String),
      },
    ]);

    // Archived, the item's worktree is reclaimed, and its sandbox folders with it.
    const itemHome = join(home, 'run', 'sandbox', 'homes', item.id);
    const sessionDir = join(home, 'run', 'sandbox', 'sessions', s.id);
    expect([existsSync(itemHome), existsSync(sessionDir)]).toEqual([true, true]);
    const archived = await http(`${jig.url}/api/work-items/${item.id}/archive`, { method: 'POST', body: {} });
    expect(archived.status, archived.text).toBe(200);
    expect([existsSync(itemHome), existsSync(sessionDir)]).toEqual([false, false]);
  });

  it('a credential over HTTPS: the proxy ends TLS with the home CA and sets the key; the task holds a placeholder', async () => {
    const item = await fileItem(jig, repo, 'secure');
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const shown = (f: string): string => git(repo, 'show', `${done.branch}:${f}`);
    expect(shown('report.txt')).toBe('secure=0\ncakey=1');
    expect(shown('got-secure.txt')).toBe(`secure key=${SECRET}`);
    const env = shown('env.txt');
    expect(env).not.toContain(SECRET);
    expect(env).toContain('API_KEY=jig-sandbox-placeholder-API_KEY');
    expect(env).toContain(`SSL_CERT_FILE=${home}/run/sandbox/ca/public/bundle.pem`);
    expect(env).toContain(`NODE_EXTRA_CA_CERTS=${home}/run/sandbox/ca/public/ca.pem`);
  });

  // Last: it replaces the file's server by a new one on the same home.
  it('a jailed task outlives a kill -9 of the server with its proxy: adopted, its refusal recorded by the next', async () => {
    const item = await fileItem(jig, repo, 'hold');
    const started = await eventOf(jig, item.id, 'worker_session_started');
    const session: string = started.payload.session;
    await jig.stop('SIGKILL');
    expect(isAlive(started.payload.pid)).toBe(true);
    jig = await startJig({ home, env: serverEnv(caFile) });
    writeFileSync(join(home, 'run', 'sandbox', 'sessions', session, 'out', 'result.json.go'), '');
    const done = await until(jig, item.id, ended);
    const evs = await events(jig, item.id);
    const story = JSON.stringify({ stop: done.stop, events: evs.map((e) => [e.type, e.payload]) });
    expect(done.status, story).toBe('completed');
    expect(git(repo, 'show', `${done.branch}:after-restart.txt`)).toBe('allowed');
    expect(evs.map((e) => e.type)).toContain('session_reattached');
    expect(evs.filter((e) => e.type === 'sandbox_egress_denied').map((e) => e.payload)).toEqual([
      expect.objectContaining({ session, host: '127.0.0.1', port: refused.port, count: 1 }),
    ]);
  });
});
