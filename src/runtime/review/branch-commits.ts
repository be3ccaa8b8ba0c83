import { existsSync } from 'node:fs';
import type { BranchCommit, ItemBranch, ItemCommits } from '../../contract/review.js';
import type { ItemRecord } from '../../store/work-items.js';
import { gitScript } from '../git/git.js';

/** The most commits listed per branch; `more` says when there are others. */
const LIMIT = 100;

/*
 * One process per branch (each git process the server starts is a fork of it, git.ts): whether the
 * branch exists, whether its base branch contains it, then its commits past the commit it was cut
 * from, NUL-separated with unit-separated fields (a subject may hold anything but those).
 */
const BRANCH_SCRIPT = `
set -f
git rev-parse --verify --quiet "refs/heads/$1^{commit}" >/dev/null || { echo missing; exit 0; }
echo present
if [ -n "$3" ] && git merge-base --is-ancestor "refs/heads/$1" "$3" 2>/dev/null; then echo merged; else echo open; fi
exec git log -z --no-show-signature --max-count="$4" --format='%H%x1f%h%x1f%s%x1f%an%x1f%cI' "$2..refs/heads/$1" --
`;

interface Where {
  member?: string;
  repo: string;
  branch: string;
  base_ref: string;
  base_branch: string | null;
}

async function branchOf(w: Where): Promise<ItemBranch> {
  const base = { ...(w.member !== undefined ? { member: w.member } : {}), repo: w.repo, branch: w.branch };
  const none = {
    ...base,
    base_branch: w.base_branch,
    exists: false,
    commits: [],
    more: false,
    merged: false,
  };
  if (!existsSync(w.repo)) return none;
  const r = await gitScript(w.repo, BRANCH_SCRIPT, [
    w.branch,
    w.base_ref,
    w.base_branch ?? '',
    String(LIMIT + 1),
  ]);
  const [exists = '', merged = '', ...rest] = r.stdout.split('\n');
  if (exists !== 'present') return none;
  if (r.code !== 0) throw new Error(`git log of ${w.branch} in ${w.repo} failed: ${r.stderr.trim()}`);
  const commits: BranchCommit[] = rest
    .join('\n')
    .split('\0')
    .filter((rec) => rec.trim() !== '')
    .map((rec) => {
      const [sha = '', short = '', subject = '', author = '', at = ''] = rec.replace(/^\n/, '').split('\x1f');
      return { sha, short, subject, author, at };
    });
  const more = commits.length > LIMIT;
  const listed = commits.slice(0, LIMIT);
  return { ...none, exists: true, commits: listed, more, merged: listed.length > 0 && merged === 'merged' };
}

/** The item's branches and their commits: the root's, then each workspace member's once cut. */
export async function itemCommits(rec: ItemRecord): Promise<ItemCommits> {
  if (rec.base_ref === null) return { branches: [] };
  const where: Where[] = [
    { repo: rec.repo, branch: rec.branch, base_ref: rec.base_ref, base_branch: rec.base_branch },
    ...(rec.workspace?.members ?? []).flatMap((m) =>
      m.base_ref === null
        ? []
        : [
            {
              member: m.name,
              repo: m.repo_path,
              branch: rec.branch,
              base_ref: m.base_ref,
              base_branch: m.base_branch,
            },
          ],
    ),
  ];
  return { branches: await Promise.all(where.map(branchOf)) };
}
