import { join } from 'node:path';
import type { ModelAgentTask } from '../../core/chain/model.js';
import type { SessionRecord } from '../../store/sessions.js';
import type { ItemRecord } from '../../store/work-items.js';
import { createInside, makeFoldersInside } from '../fs/create-inside.js';

/*
 * What an agent launch is given besides its harness: the prompt, the tools it may use, the path of
 * the document it produces; and when a rate-limited candidate may be tried again.
 */

/**
 * The work item first (what to do), then the documents earlier nodes wrote or a person attached
 * (a plan author must be able to find "the approved spec"), then the task's own instruction, then
 * Jig's brief if any.
 */
export function promptOf(
  rec: ItemRecord,
  task: ModelAgentTask,
  brief: string | undefined,
  member?: string,
): string {
  const item = [`Work item ${rec.id}: ${rec.title}`, rec.description.trim()].filter(Boolean).join('\n\n');
  const base = typeof task.prompt === 'string' ? task.prompt : '';
  return [item, workspaceOf(rec, member), documentsOf(rec), `Your task: ${base}`, brief ?? '']
    .filter((x) => x.trim() !== '')
    .join('\n\n');
}

/**
 * Where a workspace item's repositories are: a member's run works in its member only; a run in the
 * root is given every member's worktree, each a checkout of its own repository on the item's branch.
 */
function workspaceOf(rec: ItemRecord, member: string | undefined): string {
  const ws = rec.workspace;
  if (!ws) return '';
  if (member !== undefined)
    return `This work item spans the repositories of workspace ${ws.name}. You work in member ${member} only: this worktree is its repository, on branch ${rec.branch}. Commit here.`;
  const lines = ws.members.map(
    (m) => `- ${m.name} (at ${m.path} in the root): ${m.worktree_path ?? 'not cut yet'}`,
  );
  return [
    `This work item spans the repositories of workspace ${ws.name}. This worktree is its root; each member is a worktree of its own repository on branch ${rec.branch}, where its changes are committed:`,
    ...lines,
  ].join('\n');
}

function documentsOf(rec: ItemRecord): string {
  const docs = Object.entries(rec.walk?.artifacts ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (docs.length === 0) return '';
  const lines = docs.map(([kind, path]) => `- ${kind}: ${path}`);
  return `The documents of this work item so far (paths in this worktree):\n${lines.join('\n')}`;
}

/** The tools granted per launch: policy's list (plus its grants), else the CLI's working set. */
export function allowedTools(
  cap: { unrestricted?: string[]; grants?: Partial<Record<string, string>> } | undefined,
  tools: { allowed_tools: string[] | null; grants: string[]; deny_tools: string[] } | undefined,
): string[] | undefined {
  if (tools?.allowed_tools) {
    const granted = tools.grants.flatMap((g) => {
      const tool = cap?.grants?.[g];
      return tool ? [tool] : [];
    });
    return [...tools.allowed_tools, ...granted];
  }
  const all = cap?.unrestricted;
  if (!all) return undefined;
  return all.filter((t) => !(tools?.deny_tools ?? []).includes(t));
}

const DOCS_IGNORE = '# Jig documents for this work item; not part of the change.\n*\n';

/**
 * Where a task that produces a document writes it: `.jig/docs/` inside the worktree, beside a
 * `.gitignore` that keeps it out of commits. The worktree holds what the repository committed, so
 * `.jig` or `.jig/docs` may be a link out of it: the folders and the file are made without ever
 * following one out (an existing `.gitignore` that is a regular file is kept), else no launch.
 */
export function artifactPath(
  worktree: string,
  kind: string,
): { ok: true; path: string } | { ok: false; reason: string } {
  const why = (rel: string, detail: string) => ({
    ok: false as const,
    reason: `cannot prepare ${rel} in the worktree for the ${kind} document: ${detail}; Jig writes only inside the worktree`,
  });
  const ignore = createInside(worktree, '.jig/.gitignore', Buffer.from(DOCS_IGNORE), 0o644);
  if (!ignore.ok && ignore.reason !== 'exists') return why('.jig/.gitignore', ignore.detail);
  const docs = makeFoldersInside(worktree, '.jig/docs');
  if (!docs.ok) return why('.jig/docs', docs.detail);
  return { ok: true, path: join(worktree, '.jig', 'docs', `${kind}.md`) };
}

/** When a rate-limited candidate may be tried again: the reset the CLI named, else a minute from now. */
export function resetOf(s: SessionRecord, now: number): number {
  const at = (s.readout?.rate_limit as { resets_at?: string | null } | undefined)?.resets_at;
  const ms = at ? Date.parse(at) : NaN;
  return Number.isFinite(ms) && ms > now ? ms : now + 60_000;
}
