import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAll, http, repoRoot, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * A real `jig serve` (only a separate process can die by SIGKILL) is killed at a varying moment of
 * a publish whose draft spans 41 files: the library renames a node that 40 chains extend. Each file
 * is written atomically, so whatever the moment each holds its old text or its new one; the files
 * may disagree with each other right after the kill (some written, some not), and the restart puts
 * back every file of the cut publish from its journal before the config loads (ADR 0031), so the
 * config loads, new work is accepted, and the set is all old or all new. Publishing again after
 * the restart finishes the job. Needs `npm run build`.
 */

afterAll(cleanupAll);

/** Chains beside the seeded ones that extend the library's `implementation` (copies of quick-task). */
const COPIES = Array.from({ length: 37 }, (_, i) => `chains/q${String(i + 1).padStart(2, '0')}.yaml`);
const FILES = [
  'chains/default.yaml',
  'chains/merge-request.yaml',
  ...COPIES,
  'chains/quick-task.yaml',
  'library.yaml',
].sort();
/** Large enough that the writes take a while, so some kills land among them. */
const BIG = 20_000;
/** The first round runs to the end; the others are the kills. */
const ROUNDS = 21;

let template: string;

/** The seeded config with a long description in each chain and in the library's `implementation`. */
beforeAll(() => {
  template = mkdtempSync(join(tmpdir(), 'jig-kill-config-'));
  cpSync(join(repoRoot, 'defaults', 'config'), template, { recursive: true });
  const long = (tag: string) => `${tag} ${'lorem ipsum dolor sit amet '.repeat(BIG / 27)}`.trim();
  const quick = readFileSync(join(template, 'chains', 'quick-task.yaml'), 'utf8');
  for (const f of COPIES) writeFileSync(join(template, f), quick);
  for (const f of FILES.filter((f) => f.startsWith('chains/'))) {
    const path = join(template, f);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(/^description: .*$/m, `description: ${long(f)}`));
  }
});
afterAll(() => rmSync(template, { recursive: true, force: true }));

const read = (home: string, f: string): string => readFileSync(join(home, 'config', f), 'utf8');

/** Temp files an atomic write left in the config folder (`.<name>.<pid>.<hex>.tmp`). */
function temps(home: string): string[] {
  const dirs = ['', 'chains'];
  return dirs.flatMap((d) =>
    readdirSync(join(home, 'config', d))
      .filter((n) => /^\..+\.tmp$/.test(n))
      .map((n) => (d === '' ? n : `${d}/${n}`)),
  );
}

interface Round {
  home: string;
  jig: JigProcess;
  old: Record<string, string>;
  next: Record<string, string>;
}

/** A fresh home on the big config, with a server on it. */
async function open(): Promise<{ home: string; jig: JigProcess }> {
  const home = tempHome('jig-kill-');
  cpSync(template, join(home, 'config'), { recursive: true });
  return { home, jig: await startJig({ home }) };
}

/**
 * A library draft on the running server that renames the node 40 chains extend, back and forth
 * (`implementation` and `builder`), and gives it a long description: each round flips the config
 * the last one published, so one home and one restart a round do (a server start is most of a
 * round's CPU).
 */
async function prepare(home: string, jig: JigProcess): Promise<Round> {
  const old = Object.fromEntries(FILES.map((f) => [f, read(home, f)]));
  const [from, to] = old['library.yaml']!.includes('\n  builder:')
    ? ['builder', 'implementation']
    : ['implementation', 'builder'];
  const ops = await http(`${jig.url}/api/drafts/library/library/ops`, {
    method: 'POST',
    body: {
      ops: [
        { op: 'rename', path: `nodes.${from}`, id: to },
        { op: 'set_field', path: `nodes.${to}`, field: 'description', value: `${to}. ${'x'.repeat(BIG)}` },
      ],
    },
  });
  expect(ops.status, ops.text.slice(0, 500)).toBe(200);
  expect(ops.json.result.problems).toEqual([]);
  expect(Object.keys(ops.json.files).sort()).toEqual(FILES);
  const next: Record<string, string> = ops.json.files;
  for (const f of FILES) expect(next[f], f).not.toBe(old[f]);
  return { home, jig, old, next };
}

/** Which files hold their new text; throws when one holds neither text (a torn write). */
function state(r: Round): { fresh: string[]; stale: string[] } {
  const fresh: string[] = [];
  const stale: string[] = [];
  for (const f of FILES) {
    const now = read(r.home, f);
    if (now === r.next[f]) fresh.push(f);
    else if (now === r.old[f]) stale.push(f);
    else throw new Error(`${f} is torn: ${now.length} chars, neither old (${r.old[f]!.length}) nor new`);
  }
  return { fresh, stale };
}

const publishUrl = (jig: JigProcess) => `${jig.url}/api/drafts/library/library/publish`;

/** The kill rounds, in parts of a test each: a part's bound is on a hang, far past a loaded run. */
const PARTS = 4;
const PER_PART = (ROUNDS - 1) / PARTS;

describe('a publish killed mid-write', () => {
  // One home through every round, each round publishing the flip of the last (prepare); the kill
  // moments are chosen by bisection across the rounds: a kill that wrote nothing moves later, one
  // after the last write earlier.
  let home: string;
  let jig: JigProcess;
  let took = 0;
  let lo = 0;
  let hi = 0;
  const seen: string[] = [];
  afterAll(async () => {
    // What each kill found, for a reader of a failure.
    console.log(`publish took ${took}ms; kills: ${seen.join('; ')}`);
    await jig?.stop();
  });

  it('a publish that runs to its end writes every file', async () => {
    ({ home, jig } = await open());
    const first = await prepare(home, jig);
    const t0 = Date.now();
    const done = await http(publishUrl(first.jig), { method: 'POST' });
    took = Date.now() - t0;
    expect(done.status, done.text.slice(0, 500)).toBe(200);
    expect(done.json.published).toEqual(FILES);
    expect(state(first)).toEqual({ fresh: FILES, stale: [] });
    hi = Math.max(took, 20);
  }, 120_000);

  /** One kill: the publish is cut at a moment, the server restarted on the home and checked. */
  async function killRound(round: number): Promise<void> {
    const r = await prepare(home, jig);
    const delay = Math.round((lo + hi) / 2);
    const answer = http(publishUrl(r.jig), { method: 'POST' }).then(
      (res) => res.status,
      () => 'cut' as const,
    );
    await new Promise((res) => setTimeout(res, delay));
    const exit = await r.jig.stop('SIGKILL');
    const status = await answer;
    // The server may have answered before the signal landed; it is killed all the same.
    expect(exit.signal === 'SIGKILL' || status === 200, `round ${round}: ${JSON.stringify(exit)}`).toBe(true);

    // Right after the kill the set may be mixed; each file is whole either way.
    const cut = state(r);
    const leftover = temps(r.home);
    const mixed = cut.fresh.length > 0 && cut.stale.length > 0;
    // A kill among the writes keeps the bounds: the next round samples the same moment again.
    if (cut.fresh.length === 0) lo = delay;
    else if (cut.stale.length === 0) hi = delay;

    // Restart on the same home: the cut publish is rolled back and the temps of the dead writer
    // are cleared before the config loads.
    const logPath = join(home, 'run', 'logs', 'server.log');
    const logFrom = statSync(logPath).size;
    const again = await startJig({ home });
    jig = again;
    const back = state(r);
    seen.push(
      `${delay}ms: ${cut.fresh.length}/${FILES.length} new at the kill, ${back.fresh.length} after the restart, ${leftover.length} temp (${status})`,
    );
    expect([0, FILES.length], `round ${round}: ${back.fresh.length} of ${FILES.length} new`).toContain(
      back.fresh.length,
    );
    expect(temps(r.home)).toEqual([]);
    expect(existsSync(join(r.home, 'config', '.journal')), `round ${round}`).toBe(false);
    // What this start logged: the home's log holds every earlier round's too.
    const log = readFileSync(logPath, 'utf8').slice(logFrom);
    if (leftover.length > 0)
      expect(log).toContain(`removed ${leftover.length} temp file(s) an interrupted write left behind`);
    if (mixed) {
      expect(back.fresh, `round ${round}`).toEqual([]);
      // The files it had replaced, and the one it was about to replace when the kill came.
      const put = /an interrupted config change was rolled back: (\d+) file\(s\)/.exec(log);
      expect(put, `round ${round}`).not.toBeNull();
      expect([cut.fresh.length, cut.fresh.length + 1]).toContain(Number(put![1]));
      // Health names them too, for as long as this start runs.
      const named = (await http(`${again.url}/api/health`)).json.config_rolled_back as string[];
      expect(named).toHaveLength(Number(put![1]));
      expect(named.filter((f) => cut.fresh.includes(f)).sort()).toEqual(cut.fresh);
    }
    const health = await http(`${again.url}/api/health`);
    expect(health.json.status, `round ${round}: ${health.text.slice(0, 300)}`).toBe('ok');
    // New work is not refused: a filing gets as far as its repo.
    const filed = await http(`${again.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'after the restart', repo: join(r.home, 'no-such-repo') },
    });
    expect(filed.json.code, `round ${round}: ${filed.text.slice(0, 300)}`).toBe('repo_not_connected');

    const drafts = await http(`${again.url}/api/drafts`);
    const pending = drafts.json.some((d: { area: string }) => d.area === 'library');
    const retry = await http(publishUrl(again), { method: 'POST' });
    if (pending) {
      // Files already holding the draft's text are not stale: the retry goes through.
      expect(retry.status, `round ${round}: ${retry.text.slice(0, 500)}`).toBe(200);
      expect(retry.json.published).toEqual(FILES);
    } else {
      // The first publish got as far as dropping the draft: everything was written.
      expect(back.stale, `round ${round}`).toEqual([]);
      expect(retry.status).toBe(404);
    }
    expect(state({ ...r, jig: again })).toEqual({ fresh: FILES, stale: [] });
    const chains = await http(`${again.url}/api/templates/chains`);
    for (const id of ['default', 'merge-request', 'quick-task', 'q01', 'q37']) {
      const c = chains.json.chains.find((x: { id: string }) => x.id === id);
      expect(c, id).toMatchObject({ resolves: true });
    }
  }

  for (let part = 0; part < PARTS; part++) {
    const from = part * PER_PART + 1;
    it(`kills ${from}–${from + PER_PART - 1}: after a restart the files are all old or all new, the config loads and new work is accepted; a publish again finishes it`, async () => {
      for (let round = from; round < from + PER_PART; round++) await killRound(round);
      expect(seen).toHaveLength(from + PER_PART - 1);
    }, 300_000);
  }
});
