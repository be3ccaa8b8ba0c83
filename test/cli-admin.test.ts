import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from './helpers/engine.js';
import { bubblewrapWorks, PROPOSED_DEFAULT } from '../src/cli/commands/admin-doctor-sandbox.js';
import { cleanupAll, runJig, startJig, tempHome } from './helpers/server.js';

const started: number[] = [];
afterAll(async () => {
  // Servers the CLI started in the background are not the helpers' children.
  for (const pid of started) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await cleanupAll();
});

/** An environment where the CLI sees only this home (and no JIG_URL of the caller's). */
function envFor(home: string, more: Record<string, string> = {}): Record<string, string> {
  return { JIG_HOME: home, JIG_URL: '', JIG_TOKEN: '', ...more };
}

/** A fake program on PATH that records each call's argv as one JSON line. */
function fakeBin(name: string): { dir: string; calls: () => string[][] } {
  const dir = tempHome('jig-fakebin-');
  const log = join(dir, `${name}.calls`);
  writeFileSync(
    join(dir, name),
    `#!/usr/bin/env node\nrequire('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n`,
    { mode: 0o755 },
  );
  return {
    dir,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as string[])
        : [],
  };
}

describe('jig completion and root help', () => {
  it('each shell script holds every top-level verb and the admin verbs', async () => {
    const admin = ['start', 'stop', 'restart', 'doctor', 'update', 'install-service', 'uninstall-service'];
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await runJig(['completion', shell]);
      expect(r.code, r.stderr).toBe(0);
      for (const verb of ['serve', 'admin', 'repo', 'item', 'view', 'completion', ...admin])
        expect(r.stdout, `${shell} lacks ${verb}`).toMatch(new RegExp(`(^|[\\s'"(|])${verb}([\\s'":|)]|$)`));
      expect(r.stdout).toContain('--detach');
    }
    expect((await runJig(['completion', 'tcsh'])).code).toBe(2);
  });

  it('--help lists the exit codes and the environment variables', async () => {
    const r = await runJig(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Exit codes:');
    for (const v of ['JIG_HOME', 'JIG_URL', 'JIG_TOKEN', 'JIG_UPDATE_FEED', 'NO_COLOR'])
      expect(r.stdout).toContain(v);
  });
});

describe('jig admin install-service / uninstall-service', () => {
  it('--dry-run prints the systemd unit and the launchd agent and writes nothing', async () => {
    const home = tempHome();
    const HOME = tempHome('jig-user-');
    const r = await runJig(['admin', 'install-service', '--dry-run'], envFor(home, { HOME }));
    expect(r.code, r.stderr).toBe(0);
    const unit = join(HOME, '.config', 'systemd', 'user', 'jig.service');
    expect(r.stdout).toContain(`# ${unit}`);
    expect(r.stdout).toContain(`ExecStart="${process.execPath}" "`);
    expect(r.stdout).toMatch(/bin\/jig\.js" "serve"/);
    expect(r.stdout).toContain(`Environment="JIG_HOME=${home}"`);
    expect(r.stdout).toContain('Restart=on-failure');
    expect(r.stdout).toContain('systemctl --user enable --now jig.service');
    expect(existsSync(unit)).toBe(false);

    const mac = await runJig(
      ['admin', 'install-service', '--dry-run', '--platform', 'darwin'],
      envFor(home, { HOME }),
    );
    expect(mac.code).toBe(0);
    expect(mac.stdout).toContain(join(HOME, 'Library', 'LaunchAgents', 'dev.jig.server.plist'));
    expect(mac.stdout).toContain(`<string>${process.execPath}</string>`);
    expect(mac.stdout).toContain('<key>JIG_SUPERVISED</key><string>1</string>');
    expect(mac.stdout).toContain('launchctl load -w');
  });

  it('refuses a JIG_HOME with a newline (exit 2); escapes % everywhere and $ only in ExecStart', async () => {
    const HOME = tempHome('jig-user-');
    const bad = await runJig(
      ['admin', 'install-service', '--dry-run', '--platform', 'linux'],
      envFor(`${tempHome()}\nExecStartPre=/bin/sh -c evil`, { HOME }),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('JIG_HOME');
    expect(bad.stdout).not.toContain('ExecStartPre');
    const mac = await runJig(
      ['admin', 'install-service', '--dry-run', '--platform', 'darwin'],
      envFor(tempHome(), { HOME, PATH: `/usr/bin\n:/bin` }),
    );
    expect(mac.code).toBe(2);
    expect(mac.stderr).toContain('PATH');

    const odd = join(tempHome(), 'a$b%c"d');
    const r = await runJig(
      ['admin', 'install-service', '--dry-run', '--platform', 'linux'],
      envFor(odd, { HOME }),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Environment="JIG_HOME=${odd.replace('%', '%%').replace('"', '\\"')}"`);
    const plist = await runJig(
      ['admin', 'install-service', '--dry-run', '--platform', 'darwin'],
      envFor(odd, { HOME }),
    );
    expect(plist.stdout).toContain(`<key>JIG_HOME</key><string>${odd.replace('"', '&quot;')}</string>`);
  });

  it('writes the unit and enables it through systemctl; uninstall disables and removes it', async () => {
    const home = tempHome();
    const HOME = tempHome('jig-user-');
    const systemctl = fakeBin('systemctl');
    const env = envFor(home, { HOME, PATH: `${systemctl.dir}:${process.env.PATH}` });
    const r = await runJig(['admin', 'install-service', '--platform', 'linux'], env);
    expect(r.code, r.stderr).toBe(0);
    const unit = join(HOME, '.config', 'systemd', 'user', 'jig.service');
    expect(readFileSync(unit, 'utf8')).toContain(`Environment="JIG_HOME=${home}"`);
    expect(statSync(unit).mode & 0o777).toBe(0o644);
    expect(systemctl.calls()).toEqual([
      ['--user', 'daemon-reload'],
      ['--user', 'enable', '--now', 'jig.service'],
    ]);

    const u = await runJig(['admin', 'uninstall-service', '--platform', 'linux'], env);
    expect(u.code, u.stderr).toBe(0);
    expect(existsSync(unit)).toBe(false);
    expect(systemctl.calls().slice(2)).toEqual([
      ['--user', 'disable', '--now', 'jig.service'],
      ['--user', 'daemon-reload'],
    ]);
    const again = await runJig(['admin', 'uninstall-service', '--platform', 'linux'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no service is installed');
  });
});

describe('jig admin doctor', () => {
  it('answers pass/warn/fail rows with a fix each, and exits 1 once a row fails', async () => {
    const jig = await startJig();
    const HOME = tempHome('jig-user-');
    const gitconfig = join(HOME, '.gitconfig');
    writeFileSync(gitconfig, '[user]\n\tname = Doc Tor\n\temail = doc@jig.invalid\n');
    const env = envFor(jig.home, { HOME, GIT_CONFIG_GLOBAL: gitconfig, GIT_CONFIG_NOSYSTEM: '1' });
    const r = await runJig(['admin', 'doctor', '--json'], env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as {
      check: string;
      status: string;
      detail: string;
      fix: string | null;
    }[];
    const by = (check: string) => rows.find((x) => x.check === check);
    expect(by('server')).toMatchObject({ status: 'pass' });
    expect(by('config')).toMatchObject({ status: 'pass' });
    expect(by('home')).toMatchObject({ status: 'pass' });
    expect(by('git identity')).toMatchObject({ status: 'pass', detail: 'Doc Tor <doc@jig.invalid>' });
    expect(by('disk')?.status).not.toBe('fail');
    expect(by('network')).toMatchObject({ status: 'pass' });
    expect(by('database')).toEqual({
      check: 'database',
      status: 'pass',
      detail: `SQLite in ${join(jig.home, 'run')} (one server walks every item)`,
      fix: null,
    });
    expect(by('service')).toMatchObject({ status: 'warn', fix: '`jig admin install-service`' });
    expect(rows.some((x) => x.check.startsWith('agent '))).toBe(true);
    for (const x of rows) expect(['pass', 'warn', 'fail']).toContain(x.status);
    for (const x of rows.filter((y) => y.status === 'fail')) expect(x.fix).toBeTruthy();

    // A readable run/ fails its row, with the chmod that fixes it; the table names it too.
    chmodSync(join(jig.home, 'run'), 0o755);
    const bad = await runJig(['admin', 'doctor'], env);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/fail\thome\t/);
    expect(bad.stdout).toContain(`chmod 700 ${join(jig.home, 'run')}`);
    chmodSync(join(jig.home, 'run'), 0o700);

    // No git identity: an item would stop at its first start.
    const noIdentity = envFor(jig.home, {
      HOME,
      GIT_CONFIG_GLOBAL: join(HOME, 'none'),
      GIT_CONFIG_NOSYSTEM: '1',
    });
    const git = JSON.parse((await runJig(['admin', 'doctor', '--json'], noIdentity)).stdout) as typeof rows;
    expect(git.find((x) => x.check === 'git identity')).toMatchObject({ status: 'fail' });
  });

  it.skipIf(!bubblewrapWorks().ok)(
    'the sandbox row warns with the line to add while nothing is jailed, and passes once policy.yaml jails',
    async () => {
      const jig = await startJig();
      const env = envFor(jig.home);
      const rowOf = async () =>
        (JSON.parse((await runJig(['admin', 'doctor', '--json'], env)).stdout) as { check: string }[]).find(
          (x) => x.check === 'sandbox',
        );
      expect(await rowOf()).toEqual({
        check: 'sandbox',
        status: 'warn',
        detail:
          "bubblewrap works here, and policy.yaml sets no default sandbox: tasks would run with the server's reach",
        fix: PROPOSED_DEFAULT,
      });
      const policy = join(jig.home, 'config', 'policy.yaml');
      appendFileSync(policy, '\nsandbox: {kind: bubblewrap, network: {allow: []}}\n');
      expect(await rowOf()).toEqual({
        check: 'sandbox',
        status: 'pass',
        detail: "policy.yaml jails every repository's tasks (bubblewrap)",
        fix: null,
      });
      // A container kind whose runtime does not answer (these machines have a docker client and no
      // daemon, or no docker at all): the row fails and says so.
      // (The seeded file's comment shows a bubblewrap line too: change the line written above.)
      const line = 'sandbox: {kind: bubblewrap, network: {allow: []}}';
      writeFileSync(
        policy,
        readFileSync(policy, 'utf8').replace(line, 'sandbox: {kind: docker, image: x, network: {allow: []}}'),
      );
      const row = await rowOf();
      expect(row).toMatchObject({
        status: 'fail',
        fix: 'install docker (docs/sandbox.md), or set their sandbox to kind: bubblewrap',
      });
      expect(JSON.stringify(row)).toMatch(
        /repositories ask for a docker sandbox, and docker (is not installed|does not answer: .+): their items stop at the first task/,
      );
    },
  );

  it('with no server the server row fails and the command exits 1', async () => {
    const home = tempHome();
    const r = await runJig(['admin', 'doctor', '--json'], envFor(home, { JIG_URL: 'http://127.0.0.1:9' }));
    expect(r.code).toBe(1);
    const rows = JSON.parse(r.stdout) as { check: string; status: string; fix: string | null }[];
    expect(rows[0]).toMatchObject({ check: 'server', status: 'fail' });
    expect(rows[0]?.fix).toContain('jig admin start');
  });
});

describe('jig admin update', () => {
  it('compares the installed version with the feed, per channel; installs only with --yes', async () => {
    let up = true;
    const feed: Server = createServer((req, res) => {
      if (!up) {
        res.writeHead(503).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          name: 'jig',
          'dist-tags': { latest: '2.0.0', rc: '2.1.0-rc.1', beta: '2.2.0-beta.2' },
        }),
      );
    });
    await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
    const feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/jig`;
    const jig = await startJig({ env: { JIG_UPDATE_FEED: feedUrl } });
    const npm = fakeBin('npm');
    const env = envFor(jig.home, { JIG_NPM: join(npm.dir, 'npm') });
    try {
      const cached = await runJig(['admin', 'update', '--cached', '--json'], env);
      expect(JSON.parse(cached.stdout)).toMatchObject({
        checked_at: null,
        latest: null,
        update_available: false,
      });

      const stable = await runJig(['admin', 'update'], env);
      expect(stable.code, stable.stderr).toBe(0);
      expect(stable.stdout).toBe('jig 2.0.0 is up to date on the stable channel (newest 2.0.0)\n');

      const beta = await runJig(['admin', 'update', '--channel', 'beta', '--json'], env);
      expect(JSON.parse(beta.stdout)).toMatchObject({
        channel: 'beta',
        installed: '2.0.0',
        latest: '2.2.0-beta.2',
        update_available: true,
        feed: feedUrl,
      });
      const rc = await runJig(['admin', 'update', '--channel', 'rc'], env);
      expect(rc.stdout).toContain('jig 2.1.0-rc.1 is available on the rc channel (installed 2.0.0)');
      expect(rc.stdout).toContain('jig admin update --channel rc --yes');
      expect(npm.calls()).toEqual([]);

      // --yes installs only for a server on this CLI's own home.
      const elsewhere = await runJig(
        ['admin', 'update', '--channel', 'rc', '--yes'],
        envFor(tempHome(), { JIG_URL: jig.url, JIG_NPM: join(npm.dir, 'npm') }),
      );
      expect(elsewhere.code).toBe(2);
      expect(elsewhere.stderr).toContain("not on this CLI's home");
      expect(npm.calls()).toEqual([]);

      const yes = await runJig(['admin', 'update', '--channel', 'rc', '--yes'], env);
      expect(yes.code, yes.stderr).toBe(0);
      expect(npm.calls()).toEqual([['install', '-g', 'jig@2.1.0-rc.1']]);

      // --force and --restart are about the install: alone they are usage errors, nothing runs.
      for (const flag of ['--force', '--restart'])
        expect(await runJig(['admin', 'update', flag], env)).toMatchObject({
          code: 2,
          stderr: `jig: ${flag} goes with --yes (it is about the install)\n`,
        });
      // Up to date, --force still installs the channel's newest (a reinstall).
      const forced = await runJig(['admin', 'update', '--yes', '--force'], env);
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stdout).toContain('installed jig 2.0.0; restart the server to run it: jig admin restart');
      expect(npm.calls()).toEqual([
        ['install', '-g', 'jig@2.1.0-rc.1'],
        ['install', '-g', 'jig@2.0.0'],
      ]);

      expect((await runJig(['admin', 'update', '--channel', 'gamma'], env)).code).toBe(2);

      up = false;
      const down = await runJig(['admin', 'update'], env);
      expect(down.code).toBe(1);
      expect(down.stderr).toContain('update_feed_failed');
      expect(down.stderr).toContain('HTTP 503');
      // The last good answer is still the cached one.
      const still = await runJig(['admin', 'update', '--cached', '--channel', 'beta', '--json'], env);
      expect(JSON.parse(still.stdout)).toMatchObject({ latest: '2.2.0-beta.2' });
    } finally {
      feed.close();
    }
  });
});

describe('jig admin start / stop / restart', () => {
  it('stop and restart exit 1 when no server runs', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'run'), { recursive: true });
    const stop = await runJig(['admin', 'stop'], envFor(home));
    expect(stop.code).toBe(1);
    expect(stop.stderr).toContain('no Jig server runs');
    const restart = await runJig(['admin', 'restart', '-y'], envFor(home, { JIG_URL: 'http://127.0.0.1:9' }));
    expect(restart.code).toBe(1);
    expect(restart.stderr).toContain('no Jig server runs');
  });

  it('stop never signals a live process that is not the server which wrote the pid file', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'run'), { recursive: true });
    // A reused pid running something whose argv ends in `jig` (a name check alone would match it).
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', '/home/u/bin/jig'], {
      stdio: 'ignore',
    });
    const pid = other.pid!;
    try {
      for (const start_time of ['1', null]) {
        writeFileSync(
          join(home, 'run', 'jig.pid'),
          JSON.stringify({
            pid,
            start_time,
            bind: '127.0.0.1',
            port: 9,
            started_at: new Date().toISOString(),
          }),
        );
        const r = await runJig(['admin', 'stop'], envFor(home));
        expect(r.code).toBe(1);
        expect(r.stderr).toContain('was not signalled');
        expect(isAlive(pid)).toBe(true);
      }
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  it('restart with no terminal and no -y refuses (exit 2) and says to pass -y', async () => {
    const jig = await startJig();
    const r = await runJig(['admin', 'restart'], envFor(jig.home));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass -y');
    expect(isAlive(jig.pid)).toBe(true);
  });

  it('stop signals the server of this home only, which exits cleanly', async () => {
    const jig = await startJig();
    const r = await runJig(['admin', 'stop'], envFor(jig.home));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`stopped the Jig server (pid ${jig.pid})\n`);
    expect(await jig.exited).toMatchObject({ code: 0 });
  });

  it('start --detach runs it in the background; restart -y replaces it; stop ends it', async () => {
    const home = tempHome();
    const env = envFor(home);
    const s = await runJig(['admin', 'start', '--detach', '--port', '0'], env);
    expect(s.code, s.stderr).toBe(0);
    const m = /jig listening on (\S+) \(pid (\d+)/.exec(s.stdout);
    expect(m, s.stdout).not.toBeNull();
    const first = Number(m![2]);
    started.push(first);
    expect((await runJig(['admin', 'start', '--detach'], env)).stdout).toContain('already runs');

    const r = await runJig(['admin', 'restart', '-y'], env);
    expect(r.code, r.stderr).toBe(0);
    const rm = /pid (\d+) → (\d+)/.exec(r.stdout);
    expect(rm, r.stdout).not.toBeNull();
    const second = Number(rm![2]);
    started.push(second);
    expect(second).not.toBe(first);
    expect(isAlive(first)).toBe(false);
    expect((await runJig(['admin', 'health'], env)).code).toBe(0);

    const stop = await runJig(['admin', 'stop'], env);
    expect(stop.code, stop.stderr).toBe(0);
    expect(isAlive(second)).toBe(false);
  });
});
