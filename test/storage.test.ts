import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { events, post, until } from './helpers/engine.js';
import { git, makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * Storage on a real server: disk use per part and per item, and the clean-up of ended items'
 * worktrees, whose dry run lists exactly what the clean-up then frees.
 */

const CHAIN = `
nodes:
  - id: fill
    kind: exec
    tasks:
      - id: big
        kind: subprocess
        run: head -c 300000 /dev/zero > big.bin && echo x >> out.txt && git add out.txt && git commit -qm x && echo filled
  - id: look
    kind: gate
`;

let jig: JigProcess;
let repo: string;
const ids: Record<string, string> = {};

const file = async (title: string) => {
  const r = await post(jig, '/api/work-items', { title, repo, start: true });
  expect(r.status, r.text).toBe(201);
  await until(jig, r.json.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
  return r.json.id as string;
};

beforeAll(async () => {
  const home = tempHome();
  repo = makeRepo({ 'README.md': '# a\n' });
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  writeFileSync(join(home, 'config', 'chains', 'fill.yaml'), CHAIN);
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    stringify({ repos: [{ path: repo, test_command: '', setup_command: '', default_chain: 'fill' }] }),
  );
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  jig = await startJig({ home });
  ids.done = await file('Done');
  expect((await post(jig, `/api/work-items/${ids.done}/gates/look/approve`)).status).toBe(200);
  await until(jig, ids.done, (i) => i.status === 'completed');
  ids.archived = await file('Archived');
  expect((await post(jig, `/api/work-items/${ids.archived}/gates/look/approve`)).status).toBe(200);
  await until(jig, ids.archived, (i) => i.status === 'completed');
  expect((await post(jig, `/api/work-items/${ids.archived}/archive`)).status).toBe(200);
  ids.cancelled = await file('Cancelled');
  expect((await post(jig, `/api/work-items/${ids.cancelled}/cancel`)).status).toBe(200);
  ids.waiting = await file('Waiting');
});
afterAll(cleanupAll);

const storage = async () => (await http(`${jig.url}/api/storage`)).json;

describe('storage', () => {
  it('reports disk use per part and per item, and what a clean-up would reclaim', async () => {
    const s = await storage();
    expect(s.home).toBe(jig.home);
    expect(s.total_bytes).toBe(
      s.database_bytes + s.worktrees_bytes + s.logs_bytes + s.results_bytes + s.attachments_bytes,
    );
    expect(s.database_bytes).toBeGreaterThan(0);
    const byId = Object.fromEntries(s.items.map((i: any) => [i.id, i]));
    // Each item's one session logged what its task printed: `filled`.
    const logged = 'filled\n'.length;
    for (const k of ['done', 'cancelled', 'waiting']) {
      expect(byId[ids[k]!].worktree_bytes).toBeGreaterThan(300000);
      expect(byId[ids[k]!].log_bytes).toBe(logged);
    }
    // The archived item's worktree went with the archive; its log stays, and is listed alone.
    expect(byId[ids.archived!]).toMatchObject({
      archived: true,
      worktree_path: null,
      worktree_bytes: 0,
      log_bytes: logged,
    });
    expect(s.reclaimable).toEqual({
      items: 2,
      bytes: byId[ids.done!].worktree_bytes + byId[ids.cancelled!].worktree_bytes,
    });
  });

  it('a dry run lists what the clean-up then frees, to the byte; the branches stay', async () => {
    const before = await storage();
    const none = await post(jig, '/api/storage/cleanup?dry_run=1&older_than_days=1');
    expect(none.json).toEqual({ dry_run: true, items: [], bytes: 0 });
    const dry = await post(jig, '/api/storage/cleanup?dry_run=1');
    expect(dry.status, dry.text).toBe(200);
    expect(dry.json.items.map((i: any) => i.id).sort()).toEqual([ids.done, ids.cancelled].sort());
    expect(dry.json.bytes).toBe(before.reclaimable.bytes);
    const paths = dry.json.items.map((i: any) => i.worktree_path);
    for (const p of paths) expect(existsSync(p)).toBe(true);

    const real = await post(jig, '/api/storage/cleanup');
    expect(real.json).toEqual({ ...dry.json, dry_run: false });
    for (const p of paths) expect(existsSync(p)).toBe(false);
    const after = await storage();
    expect(before.worktrees_bytes - after.worktrees_bytes).toBe(real.json.bytes);
    expect(after.reclaimable).toEqual({ items: 0, bytes: 0 });
    // The waiting item keeps its worktree; the cleaned ones keep their branch.
    expect(after.items.find((i: any) => i.id === ids.waiting).worktree_bytes).toBeGreaterThan(300000);
    for (const id of [ids.done!, ids.cancelled!]) {
      const item = (await http(`${jig.url}/api/work-items/${id}`)).json;
      expect(git(repo, 'branch', '--list', item.branch)).toContain(item.branch);
      const reclaimed = (await events(jig, id)).filter((e) => e.type === 'worktree_reclaimed');
      expect(reclaimed.map((e) => e.payload)).toEqual([{ worktree_removed: true, cleanup: true }]);
    }
    expect((await post(jig, '/api/storage/cleanup')).json).toEqual({ dry_run: false, items: [], bytes: 0 });
    expect((await post(jig, '/api/storage/cleanup?dry_run=maybe')).status).toBe(422);
  });
});
