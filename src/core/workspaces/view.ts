import type { ReposFile, RepoEntry } from '../../contract/config/repos.js';
import type { WorkspaceView } from '../../contract/repos.js';

/** A member path must stay inside the root's checkout: relative, without `..` segments. */
function pathProblem(path: string): string | null {
  if (path.startsWith('/')) return `path ${path} is absolute; give it relative to the root`;
  if (path.split('/').some((s) => s === '..')) return `path ${path} leaves the root`;
  return null;
}

/**
 * The workspaces of repos.yaml as a person reads them: each repository they name resolved to its
 * connected entry (by `id`), and what keeps the workspace from being used, in words.
 */
export function workspaceViews(file: ReposFile): WorkspaceView[] {
  const byId = new Map<string, RepoEntry>();
  for (const r of file.repos) if (r.id !== undefined) byId.set(r.id, r);
  const state = (id: string, what: string): { entry: RepoEntry | null; problem: string | null } => {
    const entry = byId.get(id) ?? null;
    if (!entry)
      return {
        entry,
        problem: `${what} ${id} is not a connected repository (no repos.yaml entry has id: ${id})`,
      };
    if (entry.enabled === false) return { entry, problem: `${what} ${id} (${entry.path}) is disabled` };
    return { entry, problem: null };
  };
  return Object.entries(file.workspaces ?? {}).map(([name, ws]) => {
    const root = state(ws.root, 'root');
    const seen = new Set<string>();
    const members = Object.entries(ws.members ?? {}).map(([m, def]) => {
      const s = state(def.repository, `member ${m}:`);
      const badPath = pathProblem(def.path);
      let problem = badPath ?? s.problem;
      // A member with a bad path is reported for that alone; the next one with its repository is not a repeat.
      if (problem === null && seen.has(def.repository))
        problem = `member ${m}: repository ${def.repository} is already a member`;
      if (badPath === null) seen.add(def.repository);
      return {
        name: m,
        repository: def.repository,
        path: def.path,
        repo_path: s.entry?.path ?? null,
        enabled: s.entry !== null && s.entry.enabled !== false,
        problem,
      };
    });
    const problems = [
      ...(root.problem ? [root.problem] : []),
      ...(members.length === 0 ? ['it has no members'] : []),
      ...members.flatMap((m) => (m.problem ? [m.problem] : [])),
    ];
    return {
      name,
      root: ws.root,
      root_path: root.entry?.path ?? null,
      root_pointer_default: ws.root_pointer_default ?? 'ignore',
      members,
      ready: problems.length === 0,
      problems,
    };
  });
}
