import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAll, http, repoRoot, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * A real `jig serve` (only a separate process can die by SIGKILL) is killed at a varying moment of
 * a publish whose draft spans four large files. Each file is written atomically, so whatever the
 * moment, each holds its old text or its new one, never a mix; the files of the draft may disagree
 * with each other (some written, some not), and publishing again after the restart finishes the job.
 * Needs `npm run build`.
 */

afterAll(cleanupAll);

const FILES = ['chains/default.yaml', 'chains/merge-request.yaml', 'chains/quick-task.yaml', 'library.yaml'];
/** Large enough that the writes take a while, so some kills land among them. */
const BIG = 400_000;
const ROUNDS = 8;

let template: string;

/** The seeded config with a long description in each chain and in the library's `implementation`. */
beforeAll(() => {
  template = mkdtempSync(join(tmpdir(), 'jig-kill-config-'));
  cpSync(join(repoRoot, 'defaults', 'config'), template, { recursive: true });
  const long = (tag: string) => `${tag} ${'lorem ipsum dolor sit amet '.repeat(BIG / 27)}`.trim();
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

/** A fresh home on the big config, a server on it, and a library draft renaming `implementation`. */
async function prepare(): Promise<Round> {
  const home = tempHome('jig-kill-');
  cpSync(template, join(home, 'config'), { recursive: true });
  const jig = await startJig({ home });
  const old = Object.fromEntries(FILES.map((f) => [f, read(home, f)]));
  const ops = await http(`${jig.url}/api/drafts/library/library/ops`, {
    method: 'POST',
    body: {
      ops: [
        { op: 'rename', path: 'nodes.implementation', id: 'builder' },
        {
          op: 'set_field',
          path: 'nodes.builder',
          field: 'description',
          value: `Implements. ${'x'.repeat(BIG)}`,
        },
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

describe('a publish killed mid-write', () => {
  it('leaves each file old or new, never torn; after a restart a publish again finishes it', async () => {
    // Round 0 runs to the end and times the publish; the other rounds kill it at moments chosen
    // by bisection: a kill that wrote nothing moves later, one after the last write earlier.
    const first = await prepare();
    const t0 = Date.now();
    const done = await http(publishUrl(first.jig), { method: 'POST' });
    const took = Date.now() - t0;
    expect(done.status, done.text.slice(0, 500)).toBe(200);
    expect(done.json.published).toEqual(FILES);
    expect(state(first)).toEqual({ fresh: FILES, stale: [] });
    await first.jig.stop();

    let lo = 0;
    let hi = Math.max(took, 20);
    const seen: string[] = [];
    for (let round = 1; round < ROUNDS; round++) {
      const r = await prepare();
      const delay = Math.round((lo + hi) / 2);
      const answer = http(publishUrl(r.jig), { method: 'POST' }).then(
        (res) => res.status,
        () => 'cut' as const,
      );
      await new Promise((res) => setTimeout(res, delay));
      const exit = await r.jig.stop('SIGKILL');
      const status = await answer;
      // The server may have answered before the signal landed; it is killed all the same.
      expect(exit.signal === 'SIGKILL' || status === 200, `round ${round}: ${JSON.stringify(exit)}`).toBe(
        true,
      );

      const after = state(r);
      const leftover = temps(r.home);
      seen.push(`${delay}ms: ${after.fresh.length}/${FILES.length} new, ${leftover.length} temp (${status})`);
      // A kill among the writes keeps the bounds: the next round samples the same moment again.
      if (after.fresh.length === 0) lo = delay;
      else if (after.stale.length === 0) hi = delay;

      // Restart on the same home: the temps of the dead writer are cleared before the config loads.
      const again = await startJig({ home: r.home });
      expect(temps(r.home)).toEqual([]);
      if (leftover.length > 0) {
        const log = readFileSync(join(r.home, 'run', 'logs', 'server.log'), 'utf8');
        expect(log).toContain(`removed ${leftover.length} temp file(s) an interrupted write left behind`);
      }
      const drafts = await http(`${again.url}/api/drafts`);
      const open = drafts.json.some((d: { area: string }) => d.area === 'library');
      const retry = await http(publishUrl(again), { method: 'POST' });
      if (open) {
        // Files already holding the draft's text are not stale: the retry goes through.
        expect(retry.status, `round ${round}: ${retry.text.slice(0, 500)}`).toBe(200);
        expect(retry.json.published).toEqual(FILES);
      } else {
        // The first publish got as far as dropping the draft: everything was written.
        expect(after.stale, `round ${round}`).toEqual([]);
        expect(retry.status).toBe(404);
      }
      expect(state({ ...r, jig: again })).toEqual({ fresh: FILES, stale: [] });
      const chains = await http(`${again.url}/api/templates/chains`);
      for (const id of ['default', 'merge-request', 'quick-task']) {
        const c = chains.json.chains.find((x: { id: string }) => x.id === id);
        expect(c, id).toMatchObject({ resolves: true });
      }
      await again.stop();
    }
    // What each kill found, for a reader of a failure.
    expect(seen).toHaveLength(ROUNDS - 1);
    console.log(`publish took ${took}ms; kills: ${seen.join('; ')}`);
  }, 180_000);
});
