import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/*
 * The real podman for sandbox tests (../shared/reference/sandboxes.md): Debian's podman 4.3 runs
 * here with runc, cgroupfs and no default ulimits, set through a containers.conf the test names in
 * CONTAINERS_CONF (the machine's own files untouched). No registry is reachable, so the image is
 * made here: the host's binaries a test task needs and the libraries they load, imported as a tarball.
 */

/** A containers.conf that works on these machines, in a folder of its own; the server runs with it. */
export function podmanEnv(): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jig-podman-'));
  const conf = join(dir, 'containers.conf');
  writeFileSync(
    conf,
    [
      '[containers]',
      'default_ulimits = []',
      '[engine]',
      'cgroup_manager = "cgroupfs"',
      'runtime = "runc"',
      '',
    ].join('\n'),
  );
  return { env: { CONTAINERS_CONF: conf }, dir };
}

/** Why podman cannot run a container here ('' when it can), tried with `env`. */
export function podmanMissing(env: Record<string, string>): string {
  const r = spawnSync('podman', ['run', '--rm', '--network', 'none', '--rootfs', '/:O', 'true'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.error !== undefined) return 'podman is not installed (apt-get install podman runc)';
  if (r.status !== 0) return `podman cannot run a container here: ${r.stderr.trim().split('\n').pop()}`;
  return '';
}

/** The programs a test task runs inside (sh and coreutils, curl for the proxy, dd for memory). */
const PROGRAMS = ['sh', 'cat', 'echo', 'sleep', 'dd', 'env', 'id', 'ls', 'seq', 'true', 'curl', 'touch'];

/** The program's file on the host (not a shell builtin of the same name). */
function which(program: string): string {
  for (const dir of ['/usr/bin', '/bin', '/usr/local/bin']) {
    const p = join(dir, program);
    if (existsSync(p)) return realpathSync(p);
  }
  throw new Error(`${program} is not installed`);
}

/** The shared libraries a program loads (ldd's absolute paths). */
function libraries(path: string): string[] {
  const out = spawnSync('ldd', [path], { encoding: 'utf8' }).stdout;
  return [...out.matchAll(/(\/\S+)\s+\(0x/g)].map((m) => m[1]!);
}

/**
 * Builds and imports `tag`: a root with the programs above in /usr/bin (and /bin, /usr/bin as one),
 * their libraries at their own paths, a passwd naming root, and nothing else of the host.
 */
export function importTestImage(tag: string, env: Record<string, string>): void {
  const root = mkdtempSync(join(tmpdir(), 'jig-image-'));
  try {
    const put = (from: string, to = from): void => {
      mkdirSync(join(root, dirname(to)), { recursive: true });
      copyFileSync(from, join(root, to));
    };
    for (const p of PROGRAMS) {
      const path = which(p);
      put(path, `/usr/bin/${p}`);
      for (const lib of libraries(path)) put(lib);
    }
    symlinkSync('usr/bin', join(root, 'bin'));
    mkdirSync(join(root, 'etc'), { recursive: true });
    writeFileSync(join(root, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\n');
    writeFileSync(join(root, 'etc', 'group'), 'root:x:0:\n');
    for (const d of ['tmp', 'proc', 'dev', 'sys', 'run', 'var/tmp'])
      mkdirSync(join(root, d), { recursive: true });
    const tar = join(root, '..', `${tag.replace(/\W/g, '_')}.tar`);
    const t = spawnSync('tar', ['-C', root, '-cf', tar, '.'], { encoding: 'utf8' });
    if (t.status !== 0) throw new Error(`tar: ${t.stderr}`);
    const i = spawnSync('podman', ['import', tar, tag], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });
    rmSync(tar, { force: true });
    if (i.status !== 0) throw new Error(`podman import: ${i.stderr}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Containers podman has whose name starts with `prefix` (what a test left behind), in any state, or
 * with `running`, only those running.
 */
export function containersNamed(prefix: string, env: Record<string, string>, running = false): string[] {
  const r = spawnSync('podman', ['ps', ...(running ? [] : ['--all']), '--format', '{{.Names}}'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((n) => n.startsWith(prefix));
}

/** Removes the image a test imported (a test leaves no image behind). */
export function removeTestImage(tag: string, env: Record<string, string>): void {
  spawnSync('podman', ['rmi', '--force', tag], { env: { ...process.env, ...env }, timeout: 60_000 });
}
