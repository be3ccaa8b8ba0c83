import type { PolicyFile } from '../../../contract/config/policy.js';
import { ScopePolicy } from '../../../contract/config/scope-policy.js';
import type { DraftChangeRow, DraftProblem } from '../../../contract/drafts/answers.js';
import type { Problem } from '../../../contract/problems.js';
import { locate, type ANode } from '../../config/tree.js';
import { sameData } from '../../json/same.js';
import { isObj, type Obj } from '../ops/context.js';
import type { SettingsFacts, SettingsInput, SettingsPart } from './docs.js';
import { shown } from './key-changes.js';
import { repoEntries, resolveRepos, type ReposResolved } from './repos-resolved.js';
import { own } from '../../json/own.js';

export type { ReposResolved, RepoResolved } from './repos-resolved.js';

/*
 * The repos draft's part of the result object (spec drafts.md, "Repos ops" and "The result
 * object"): each entry resolved; every problem of repos.yaml with the repo it is in, plus what
 * only the draft can know (paths on disk, a removal while items run, a list a repo widens past
 * the maxima); one change row per entry; and the items not ended of each repo a publish reaches.
 */

const FILE = 'repos.yaml';

export type ReposImpact = { running: Record<string, number> };

/** The entry a problem sits in, from its `repos.<i>` path (a schema problem may carry it in `field`). */
function entryIndex(p: Problem): number | null {
  const where = p.field ? `${p.path}.${p.field}` : p.path;
  const m = /^repos\.(\d+)(?:\.|$)/.exec(where.startsWith('.') ? where.slice(1) : where);
  return m ? Number(m[1]) : null;
}

function place(tree: ANode | null, path: (string | number)[]): { line: number | null; col: number | null } {
  if (!tree) return { line: null, col: null };
  const w = locate(tree, path, 'value');
  return { line: w.line, col: w.col };
}

const PATH_PROBLEM: Record<Exclude<ReturnType<SettingsFacts['repoPath']>, 'git'>, string> = {
  not_dir: 'is not a directory on this machine',
  not_git: 'is not a git repository',
  git_no_commit: 'is a git repository with no commit yet; commit once before work runs here',
};

/**
 * A repo's policy lists that name what the instance's maxima leave out: the runtime would drop
 * those names silently (caps, loop limits and the sandbox are already the file's own problems).
 */
function widened(e: Obj, policy: PolicyFile | null): { key: string; names: string[] }[] {
  const p = isObj(e.policy) ? e.policy : {};
  const out: { key: string; names: string[] }[] = [];
  for (const key of ['allowed_tools', 'allowed_harnesses'] as const) {
    const own = ScopePolicy.shape[key].safeParse(p[key]);
    const bound = policy?.maxima?.[key];
    if (!own.success || !own.data || !bound) continue;
    const names = own.data.filter((n) => !bound.includes(n));
    if (names.length) out.push({ key, names });
  }
  return out;
}

function problemsOf(input: SettingsInput, after: unknown, before: unknown): DraftProblem[] {
  const { set, facts } = input;
  const entries = repoEntries(after);
  const pathAt = new Map(entries.map((e) => [e.index, e.path]));
  const out: DraftProblem[] = (set.files[FILE]?.problems ?? []).map((p) => {
    const i = entryIndex(p);
    return { ...p, repo: i === null ? null : (pathAt.get(i) ?? null) };
  });
  const tree = set.repos.tree;
  const policy = set.policy.model;
  for (const { index, path, entry } of entries) {
    const kind = facts.repoPath(path);
    if (kind !== 'git') {
      out.push({
        path: `repos.${index}`,
        field: 'path',
        message: `repo \`${path}\` ${PATH_PROBLEM[kind]}`,
        file: FILE,
        ...place(tree, ['repos', index, 'path']),
        repo: path,
      });
    }
    for (const { key, names } of widened(entry, policy)) {
      out.push({
        path: `repos.${index}`,
        field: `policy.${key}`,
        message: `repo \`${path}\`: policy.${key} names ${names.map((n) => `\`${n}\``).join(', ')}, which policy.yaml maxima.${key} does not allow; a repo's policy may only tighten`,
        file: FILE,
        ...place(tree, ['repos', index, 'policy', key]),
        repo: path,
      });
    }
  }
  const kept = new Set(entries.map((e) => e.path));
  for (const { path } of repoEntries(before)) {
    const open = facts.openItems[path] ?? 0;
    if (kept.has(path) || open === 0) continue;
    out.push({
      path: 'repos',
      field: null,
      message: `repo \`${path}\` has ${open} work item${open === 1 ? '' : 's'} not ended; it can be removed once they are completed or abandoned`,
      file: FILE,
      line: null,
      col: null,
      repo: path,
    });
  }
  return out;
}

/** The keys whose values differ between two entries, in the order the draft writes them. */
function differing(was: Obj, now: Obj): string[] {
  const keys = [...new Set([...Object.keys(now), ...Object.keys(was)])];
  return keys.filter((k) => !sameData(own(was, k), own(now, k)));
}

// Keys are the file's as typed: a key one entry lacks is not set there, whatever Object has.
const valueOr = (e: Obj, k: string) => (Object.hasOwn(e, k) ? shown(e[k]) : 'not set');

function changesOf(before: unknown, after: unknown): DraftChangeRow[] {
  const was = new Map(repoEntries(before).map((e) => [e.path, e.entry]));
  const now = repoEntries(after);
  const rows: DraftChangeRow[] = [];
  for (const { path, entry } of now) {
    const old = was.get(path);
    if (!old) {
      rows.push({ path, kind: 'add', summary: 'repo added', fields: Object.keys(entry), file: FILE });
      continue;
    }
    const fields = differing(old, entry);
    if (fields.length === 0) continue;
    const summary = fields.map((k) => `${k}: ${valueOr(old, k)} -> ${valueOr(entry, k)}`).join('; ');
    rows.push({ path, kind: 'change', summary, fields, file: FILE });
  }
  const kept = new Set(now.map((e) => e.path));
  for (const [path, entry] of was) {
    if (!kept.has(path))
      rows.push({ path, kind: 'remove', summary: 'repo removed', fields: Object.keys(entry), file: FILE });
  }
  if (rows.length > 0 || sameData(before, after)) return rows;
  // Nothing changed in an entry, yet the file differs (workspaces, an entry with no path, the
  // file created or deleted): one row for the file, naming its top-level keys that differ.
  const top = (d: unknown): Obj => (isObj(d) ? d : {});
  const kind = before === null ? 'add' : after === null ? 'remove' : 'change';
  const fields = differing(top(before), top(after));
  return [
    { path: FILE, kind, summary: `${FILE}: ${fields.join(', ') || 'layout'} changed`, fields, file: FILE },
  ];
}

/** Items not ended of each repo whose entry the draft changes or removes (0 included: nothing runs there). */
function impactOf(changes: DraftChangeRow[], facts: SettingsFacts): ReposImpact {
  const running: Record<string, number> = {};
  for (const row of changes) {
    if (row.path !== FILE && (row.kind === 'change' || row.kind === 'remove'))
      running[row.path] = facts.openItems[row.path] ?? 0;
  }
  return { running };
}

export function reposResult(input: SettingsInput): SettingsPart<ReposResolved, ReposImpact> {
  // Without repos.yaml in the draft the published file is the draft's: nothing changed.
  const drafted = Object.hasOwn(input.after, FILE);
  const after = drafted ? (input.after[FILE] ?? null) : (input.set.files[FILE]?.model ?? null);
  const before = drafted ? (input.before[FILE] ?? null) : after;
  const changes = changesOf(before, after);
  return {
    resolved: resolveRepos(
      after,
      input.set.policy.model,
      (name) => input.set.library.index.lookup('steering', name) !== undefined,
    ),
    problems: problemsOf(input, after, before),
    changes,
    impact: impactOf(changes, input.facts),
  };
}
