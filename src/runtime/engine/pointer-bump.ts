import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../git/git.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { EngineResources } from './resources.js';

/** One member pointer a bump moved: the submodule path in the root, from and to which commit. */
export interface PointerMove {
  member: string;
  path: string;
  from: string;
  to: string;
}

export type Bumped =
  { ok: true; commit: string | null; moves: PointerMove[] } | { ok: false; reason: string };

/** The commit the root's HEAD records at a submodule path, or null when the path is no submodule. */
async function gitlinkAt(root: string, path: string): Promise<string | null> {
  const r = await git(root, ['ls-tree', '-z', 'HEAD', '--', path]);
  const m = /^160000 commit ([0-9a-f]{40,64})\t/.exec(r.stdout);
  return r.code === 0 && m ? m[1]! : null;
}

/**
 * `root_pointer_default: bump` (docs/workspaces.md): the root's branch gets one commit moving each
 * member's submodule pointer to the commit its member branch is at. The commit is built on a
 * private index (git read-tree, update-index, write-tree, commit-tree) so nothing an agent left
 * staged in the root is swept into it, and the root's own index is then told the new pointers so
 * `git status` there stays clean. A member whose path is no submodule in the root has no pointer.
 */
export async function bumpPointers(r: Pick<EngineResources, 'paths'>, rec: ItemRecord): Promise<Bumped> {
  const ws = rec.workspace;
  const root = rec.worktree_path;
  if (!ws || ws.root_pointer !== 'bump' || root === null) return { ok: true, commit: null, moves: [] };
  const moves: PointerMove[] = [];
  for (const m of ws.members) {
    if (m.worktree_path === null) continue;
    const from = await gitlinkAt(root, m.path);
    if (from === null) continue;
    const head = await git(m.worktree_path, ['rev-parse', 'HEAD']);
    if (head.code !== 0)
      return { ok: false, reason: `member ${m.name}: git rev-parse HEAD failed: ${head.stderr.trim()}` };
    const to = head.stdout.trim();
    if (to !== from) moves.push({ member: m.name, path: m.path, from, to });
  }
  if (moves.length === 0) return { ok: true, commit: null, moves };
  const index = join(r.paths.resultsDir, `${rec.id}.bump-index`);
  rmSync(index, { force: true });
  const env = { GIT_INDEX_FILE: index };
  const step = async (args: string[], withIndex = true): Promise<string> => {
    const out = await git(root, args, 30_000, withIndex ? env : {});
    if (out.code !== 0) throw new Error(`git ${args[0]} failed: ${out.stderr.trim()}`);
    return out.stdout.trim();
  };
  try {
    const parent = await step(['rev-parse', 'HEAD'], false);
    await step(['read-tree', 'HEAD']);
    for (const mv of moves) await step(['update-index', '--cacheinfo', `160000,${mv.to},${mv.path}`]);
    const tree = await step(['write-tree']);
    const lines = moves.map(
      (mv) => `${mv.member} (${mv.path}): ${mv.from.slice(0, 12)} -> ${mv.to.slice(0, 12)}`,
    );
    const message = `Move workspace member pointers\n\n${lines.join('\n')}\n`;
    const commit = await step(['commit-tree', tree, '-p', parent, '-m', message], false);
    await step(['update-ref', '-m', 'jig: move member pointers', 'HEAD', commit, parent], false);
    for (const mv of moves) await step(['update-index', '--cacheinfo', `160000,${mv.to},${mv.path}`], false);
    return { ok: true, commit, moves };
  } catch (err) {
    return { ok: false, reason: `the root's pointer bump failed: ${(err as Error).message}` };
  } finally {
    rmSync(index, { force: true });
  }
}
