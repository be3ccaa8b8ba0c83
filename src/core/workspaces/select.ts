import type { RepoEntry, ReposFile } from '../../contract/config/repos.js';
import { own } from '../json/own.js';

/** A selected member resolved to its connected repository (by `id`). */
export interface SelectedMember {
  name: string;
  repository: string;
  path: string;
  /** Null when no repos.yaml entry has that id: the caller refuses it naming the member. */
  entry: RepoEntry | null;
}

export type Selection =
  | {
      ok: true;
      name: string;
      /** Null when the root names no connected repository. */
      root: RepoEntry | null;
      rootId: string;
      root_pointer: 'ignore' | 'bump';
      members: SelectedMember[];
    }
  | { ok: false; field: 'members'; message: string };

/**
 * The members an item on workspace `name` runs on: those asked for, in the order asked, else every
 * member in the order repos.yaml lists them. A name that is not a member, or asked twice, is refused
 * naming the members there are. Null when there is no such workspace.
 */
export function selectMembers(
  file: ReposFile,
  name: string,
  asked: readonly string[] | undefined,
): Selection | null {
  // `name` is the request's `repo`: `constructor` is no workspace.
  const ws = own(file.workspaces, name);
  if (!ws) return null;
  const defs = Object.entries(ws.members ?? {});
  const names = defs.map(([m]) => m);
  const want = asked ?? names;
  if (want.length === 0)
    return {
      ok: false,
      field: 'members',
      message: `select at least one member of ${name} (${names.join(', ')})`,
    };
  const seen = new Set<string>();
  for (const m of want) {
    if (!names.includes(m))
      return {
        ok: false,
        field: 'members',
        message: `${m} is not a member of workspace ${name} (its members: ${names.join(', ') || 'none'})`,
      };
    if (seen.has(m)) return { ok: false, field: 'members', message: `${m} is selected twice` };
    seen.add(m);
  }
  const byId = (id: string) => file.repos.find((r) => r.id === id) ?? null;
  const members = want.map((m) => {
    const def = ws.members![m]!;
    return { name: m, repository: def.repository, path: def.path, entry: byId(def.repository) };
  });
  return {
    ok: true,
    name,
    root: byId(ws.root),
    rootId: ws.root,
    root_pointer: ws.root_pointer_default ?? 'ignore',
    members,
  };
}
