import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup, sessions, setRepoKeys } from './helpers/agents.js';
import { answering, serverHomeWithKey } from './helpers/answering.js';
import { events, fileItem, oneCommand, until } from './helpers/engine.js';
import { eventOf } from './helpers/engine-clock.js';
import { eventually } from './helpers/eventually.js';
import {
  containersNamed,
  importTestImage,
  podmanEnv,
  podmanMissing,
  removeTestImage,
} from './helpers/podman.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

// Issue 45: tasks of a repo whose sandbox is `kind: podman` run in a container of a local image,
// with the real podman (Debian's podman and runc; .ci/run installs them). Skipped, with the reason,
// where podman cannot run a container.

const conf = podmanEnv();
const why = podmanMissing(conf.env);
const IMAGE = 'localhost/jig-test-sandbox:1';

const ended = (i: any): boolean => i.status !== 'running' && i.status !== 'queued';

describe.skipIf(why !== '')(`podman sandbox${why ? ` — skipped: ${why}` : ''}`, () => {
  let jig: JigProcess;
  let repo: string;
  let home: string;
  let serverHome: string;
  let allowed: { server: Server; port: number };
  let refused: { server: Server; port: number };
  let JAIL: Record<string, unknown>;

  beforeAll(async () => {
    importTestImage(IMAGE, conf.env);
    serverHome = serverHomeWithKey('Podman Test');
    allowed = await answering('allowed');
    refused = await answering('refused');
    const probe = oneCommand(
      [
        `cat ${serverHome}/.ssh/id_ed25519 > read-home.txt 2>&1; echo "home=$?" >> report.txt`,
        'echo pwned > /usr/pwned 2>/dev/null; echo "root=$?" >> report.txt',
        'echo pwned > "$REPO_SEEN/pwned" 2>/dev/null',
        `curl -fsS --max-time 20 -o got-allowed.txt http://127.0.0.1:${allowed.port}/; echo "allowed=$?" >> report.txt`,
        `curl -fsS --max-time 20 http://127.0.0.1:${refused.port}/ >/dev/null 2>&1; echo "refused=$?" >> report.txt`,
        `curl -sS --max-time 5 --noproxy '*' http://127.0.0.1:${allowed.port}/ >/dev/null 2>&1; echo "direct=$?" >> report.txt`,
        'echo "sandbox=$JIG_SANDBOX" >> report.txt',
        `echo "api_own=$(curl -s -o /dev/null -w '%{http_code}' --noproxy '*' "$JIG_URL/api/work-items/$JIG_WORK_ITEM_ID")" >> report.txt`,
        `echo "api_list=$(curl -s -o /dev/null -w '%{http_code}' --noproxy '*' "$JIG_URL/api/work-items")" >> report.txt`,
      ].join('\n'),
    );
    // More memory than the limit, touched at once: the kernel's OOM killer ends it in the container.
    const hog = oneCommand('dd if=/dev/zero of=/dev/null bs=256M count=1');
    // The same kill of a child, after which the task goes on and succeeds: it ended as it says.
    const survives = oneCommand('dd if=/dev/zero of=/dev/null bs=256M count=1; echo "dd=$?" > report.txt');
    // A hundred background processes asked for under a limit of 32: the forks past it fail. A
    // failed fork ends dash, so the count lives in a file the outer shell reads without forking.
    const forks = oneCommand(
      [
        '( i=0; while [ $i -lt 100 ]; do sleep 30 & i=$((i+1)); echo $i > started.txt; done ) 2>/dev/null',
        'read n < started.txt; echo "forks=$n" > report.txt',
      ].join('\n'),
    );
    const hold = oneCommand('sleep 600');
    ({ jig, repo, home } = await agentSetup(
      { probe, hog, survives, forks, hold },
      { serverEnv: { HOME: serverHome, ...conf.env } },
    ));
    JAIL = {
      kind: 'podman',
      image: IMAGE,
      resources: { memory: '64m', pids: 32 },
      network: { allow: [`127.0.0.1:${allowed.port}`] },
    };
    setRepoKeys(home, repo, { env: { REPO_SEEN: repo }, sandbox: JAIL });
  }, 300_000);

  afterAll(async () => {
    await cleanupAll();
    removeTestImage(IMAGE, conf.env);
    allowed?.server.close();
    refused?.server.close();
    for (const d of [serverHome, conf.dir]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('a subprocess task sees its worktree and nothing else of the host, and reaches only the allowed host', async () => {
    const item = await fileItem(jig, repo, 'probe');
    const done = await until(jig, item.id, ended);
    const [s] = await sessions(jig, item.id);
    // What the task wrote in its worktree (the image has no git to commit it with).
    const shown = (f: string): string => readFileSync(join(home, 'run', 'worktrees', item.id, f), 'utf8');
    const report = Object.fromEntries(
      shown('report.txt')
        .trim()
        .split('\n')
        .map((l) => l.split('=')),
    );
    expect(done.status, JSON.stringify({ done, report })).toBe('completed');
    expect(report).toEqual({
      home: '1', // the server's HOME is not in the container
      root: '2', // the image is read-only
      allowed: '0',
      refused: '22', // the proxy answered 403
      direct: '7', // no route but the proxy
      sandbox: 'podman',
      api_own: '200',
      api_list: '403',
    });
    expect(shown('got-allowed.txt')).toBe('allowed');
    expect(existsSync(join(repo, 'pwned'))).toBe(false);
    const evs = await events(jig, item.id);
    expect(evs.find((e) => e.type === 'worker_session_started')?.payload.sandbox).toEqual({
      kind: 'podman',
      network: `allow 127.0.0.1:${allowed.port}`,
    });
    expect(evs.filter((e) => e.type === 'sandbox_egress_denied').map((e) => e.payload)).toEqual([
      expect.objectContaining({ session: s.id, host: '127.0.0.1', port: refused.port, count: 1 }),
    ]);
    // The container is removed with the task.
    expect(containersNamed(`jig-${s.id}`, conf.env)).toEqual([]);
  });

  it('a task over its memory limit is killed out of memory: the item stops with kind sandbox_oom_killed, naming the limit', async () => {
    const item = await fileItem(jig, repo, 'hog');
    const done = await until(jig, item.id, ended);
    const [s] = await sessions(jig, item.id);
    expect(done.status, JSON.stringify(done)).toBe('stopped');
    expect(
      done.stop,
      JSON.stringify({ s, log: readFileSync(join(home, 'run', 'logs', `${s.id}.log`), 'utf8') }),
    ).toMatchObject({
      kind: 'sandbox_oom_killed',
    });
    expect(done.stop.reason).toBe(
      `only.main.t: killed out of memory: the sandbox reached its memory limit (64m) (session ${s.id}; jig view logs)`,
    );
    expect(s).toMatchObject({ status: 'oom_killed', exit_code: 137 });
  });

  it('a task whose child was killed out of memory and which then succeeds completes', async () => {
    const item = await fileItem(jig, repo, 'survives');
    const done = await until(jig, item.id, ended);
    const [s] = await sessions(jig, item.id);
    expect(done.status, JSON.stringify({ done, s })).toBe('completed');
    expect(s).toMatchObject({ status: 'done', exit_code: 0 });
    expect(readFileSync(join(home, 'run', 'worktrees', item.id, 'report.txt'), 'utf8')).toBe('dd=137\n');
  });

  it('an image that is not on the machine: the jail never starts, a config stop in the runtime’s words', async () => {
    const jail = {
      kind: 'podman',
      image: 'localhost/jig-test-absent:1',
      network: { allow: [`127.0.0.1:${allowed.port}`] },
    };
    setRepoKeys(home, repo, { sandbox: jail });
    try {
      const item = await fileItem(jig, repo, 'probe');
      const done = await until(jig, item.id, ended);
      const [s] = await sessions(jig, item.id);
      expect(done.stop, JSON.stringify(done)).toMatchObject({ kind: 'config' });
      expect(done.stop.reason).toBe(
        `only.main.t: its sandbox could not start, so the task never ran: podman create: Error: localhost/jig-test-absent:1: image not known (session ${s.id}; jig view logs)`,
      );
      expect(s.status).toBe('config_error');
      expect(existsSync(join(home, 'run', 'worktrees', item.id, 'report.txt'))).toBe(false);
    } finally {
      setRepoKeys(home, repo, { sandbox: JAIL });
    }
  });

  it('a burst of forks is held by the pids limit', async () => {
    const item = await fileItem(jig, repo, 'forks');
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const n = Number(
      /^forks=(\d+)$/.exec(
        readFileSync(join(home, 'run', 'worktrees', item.id, 'report.txt'), 'utf8').trim(),
      )?.[1],
    );
    // The shells and the first sleeps count too: fewer than 32 got a process, and some did.
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(32);
  });

  it('a paused task takes its container with it', async () => {
    const item = await fileItem(jig, repo, 'hold');
    const started = await eventOf(jig, item.id, 'worker_session_started');
    const name = `jig-${started.payload.session}`;
    await eventually(() => containersNamed(name, conf.env, true).length === 1, {
      what: 'the container to run',
    });
    const r = await http(`${jig.url}/api/work-items/${item.id}/pause`, { method: 'POST', body: {} });
    expect(r.status, r.text).toBe(200);
    await eventually(() => containersNamed(name, conf.env).length === 0, { what: 'the container to go' });
    const [s] = await sessions(jig, item.id);
    expect(s.status).toBe('paused');
    expect(readFileSync(join(home, 'run', 'sandbox', 'sessions', s.id, 'container.json'), 'utf8')).toContain(
      name,
    );
  });

  it('a task whose process group is killed at once (as a budget cap does) still loses its container: the server removes it', async () => {
    const item = await fileItem(jig, repo, 'hold');
    const started = await eventOf(jig, item.id, 'worker_session_started');
    const name = `jig-${started.payload.session}`;
    await eventually(() => containersNamed(name, conf.env, true).length === 1, {
      what: 'the container to run',
    });
    // SIGKILL leaves the sandbox program no time to stop the container: the runtime's monitor keeps it.
    process.kill(-started.payload.pid, 'SIGKILL');
    await eventually(() => containersNamed(name, conf.env).length === 0, { what: 'the container to go' });
    const done = await until(jig, item.id, ended);
    expect(done.status, JSON.stringify(done)).toBe('stopped');
  });
});
