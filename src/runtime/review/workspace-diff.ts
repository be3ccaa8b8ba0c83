import { existsSync } from 'node:fs';
import type { ItemRecord } from '../../store/work-items.js';
import { git } from '../git/git.js';
import { diffCommits, type DiffOptions, type DiffPage } from './diff.js';
import { snapshotIfPresent } from './snapshot.js';

/** One repository of the item's change: the root, or a member with its files shown under its name. */
export interface DiffSource {
  member: string | null;
  cwd: string;
  from: string;
  to: string;
}

/**
 * The members' sides of a workspace item's change (docs/workspaces.md): each member's worktree as it
 * is now against the commit its branch was cut from; once the worktree is gone, the member branch
 * in its repository. A member never cut, or whose branch is gone, has no side.
 */
export async function memberSources(rec: ItemRecord): Promise<DiffSource[]> {
  const out: DiffSource[] = [];
  for (const m of rec.workspace?.members ?? []) {
    if (m.base_ref === null) continue;
    const now = await snapshotIfPresent(m.worktree_path);
    if (now) {
      out.push({ member: m.name, cwd: m.worktree_path!, from: m.base_ref, to: now });
      continue;
    }
    if (!existsSync(m.repo_path)) continue;
    const head = await git(m.repo_path, [
      'rev-parse',
      '--verify',
      '--quiet',
      `refs/heads/${rec.branch}^{commit}`,
    ]);
    if (head.code === 0)
      out.push({ member: m.name, cwd: m.repo_path, from: m.base_ref, to: head.stdout.trim() });
  }
  return out;
}

/** `a/src/x.ts` → `a/api/src/x.ts` in a member's patch headers, so the patch names what `path` says. */
function prefixPatch(patch: string, member: string): string {
  return patch.replace(
    /^(diff --git a\/)(.*?)( b\/)(.*)$|^(--- a\/|\+\+\+ b\/|rename from |rename to )(.*)$/gm,
    (_all, d1?: string, p1?: string, d2?: string, p2?: string, h?: string, p?: string) =>
      d1 !== undefined ? `${d1}${member}/${p1}${d2}${member}/${p2}` : `${h}${member}/${p}`,
  );
}

/**
 * One page over several repositories' diffs, root first then members in order, as if they were one
 * list: offsets count across them, totals add up, and a member's paths are prefixed `<member>/`.
 */
export async function diffAcross(sources: DiffSource[], o: DiffOptions): Promise<DiffPage> {
  const totals = { files: 0, additions: 0, deletions: 0 };
  const files: DiffPage['files'] = [];
  let remaining = o.limit;
  let next: number | null = null;
  let base = 0;
  for (const src of sources) {
    const local = Math.max(0, o.offset - base);
    const taking = remaining > 0 && next === null;
    const page = await diffCommits(src.cwd, src.from, src.to, {
      ...o,
      offset: taking ? local : 0,
      limit: taking ? remaining : 0,
    });
    if (taking && local < page.totals.files) {
      for (const f of page.files) {
        if (src.member === null) files.push(f);
        else {
          const m = src.member;
          files.push({
            ...f,
            path: `${m}/${f.path}`,
            old_path: f.old_path === null ? null : `${m}/${f.old_path}`,
            patch: f.patch === null ? null : prefixPatch(f.patch, m),
            member: m,
          });
        }
      }
      remaining -= page.files.length;
      if (page.next_offset !== null) next = base + page.next_offset;
    }
    totals.files += page.totals.files;
    totals.additions += page.totals.additions;
    totals.deletions += page.totals.deletions;
    base += page.totals.files;
  }
  const shown = o.offset + files.length;
  if (next === null && shown < base && files.length > 0) next = shown;
  return { totals, files, next_offset: next };
}
