import { RepoEntry, RETIRED_REPO_KEYS } from '../../../contract/config/repos.js';
import { REPO_OP_SCHEMAS, type RepoOp } from '../../../contract/drafts/repo-ops.js';
import { isObj, OpRefused, type Obj } from '../ops/context.js';
import type { SettingsDocs, SettingsOpSet } from './docs.js';
import { parseSettingsOp } from './parse-op.js';
import { folderName } from './repos-resolved.js';

/*
 * The repos draft's ops (spec drafts.md, "Repos ops") on the working copy of repos.yaml. They do
 * what the repos routes do to an entry, minus the probing: `add_repo` writes the entry a connect
 * would start from, `set_repo` changes keys as `PATCH /api/repos` does (null clears, the entry
 * becomes managed), `remove_repo` drops it (items not ended are a problem of the result, not a
 * refusal, so a draft can hold the removal until they end), `connect_detected` adopts an entry
 * Jig found by itself.
 */

export const REPOS_FILE = 'repos.yaml';

/** Keys an entry takes; `default_chain_template` is the older name of `default_chain`, still accepted. */
const ENTRY_KEYS = new Set<string>([...Object.keys(RepoEntry.shape), 'default_chain_template']);

/** The `repos:` list of the working copy, created when the file or the key is missing. */
function entries(docs: SettingsDocs): unknown[] {
  let doc = docs.doc(REPOS_FILE);
  if (doc === null || doc === undefined) {
    doc = { repos: [] };
    docs.setDoc(REPOS_FILE, doc);
  }
  if (!isObj(doc)) throw new OpRefused('repos.yaml is not a mapping; fix the file first');
  doc.repos ??= [];
  if (!Array.isArray(doc.repos))
    throw new OpRefused('`repos` in repos.yaml is not a list; fix the file first');
  // An item that is not a mapping is left to the problems; ops only see entries with a path.
  return doc.repos;
}

const indexOf = (list: readonly unknown[], path: string): number =>
  list.findIndex((e) => isObj(e) && e.path === path);

function entryAt(docs: SettingsDocs, path: string): Obj {
  const list = entries(docs);
  const i = indexOf(list, path);
  const e = list[i];
  if (!isObj(e)) throw new OpRefused(`repo \`${path}\` is not in repos.yaml`);
  return e;
}

/**
 * Lays a patch over an entry as `PATCH /api/repos` does: the path never changes, the older
 * `default_chain_template` is written as `default_chain`, null clears a key. Keys an entry does
 * not take are refused (the route refuses them too); values are checked as problems.
 */
function layOver(entry: Obj, patch: Obj, field: string): void {
  for (const [k, v] of Object.entries(patch)) {
    if (k === 'path')
      throw new OpRefused(`${field}.path: a repo's path cannot change; add the new path instead`);
    if (!ENTRY_KEYS.has(k)) throw new OpRefused(`${field}.${k}: \`${k}\` is not a key of a repos.yaml entry`);
    const key = k === 'default_chain_template' ? 'default_chain' : k;
    if (v === null) delete entry[key];
    else entry[key] = v;
  }
}

function addRepo(docs: SettingsDocs, op: Extract<RepoOp, { op: 'add_repo' }>): void {
  const list = entries(docs);
  if (indexOf(list, op.path) >= 0) throw new OpRefused(`repo \`${op.path}\` is already in repos.yaml`);
  if (docs.facts.repoPath(op.path) === 'git_no_commit') {
    throw new OpRefused(
      `repo \`${op.path}\` is a git repository with no commit yet; commit once, then add it`,
    );
  }
  const entry: Obj = {
    path: op.path,
    name: folderName(op.path),
    default_chain: 'default',
    enabled: false,
    managed: true,
  };
  layOver(entry, op.fields ?? {}, 'fields');
  list.push(entry);
}

function setRepo(docs: SettingsDocs, op: Extract<RepoOp, { op: 'set_repo' }>): void {
  const entry = entryAt(docs, op.path);
  // The route rewrites the entry from its model: the older name is read as default_chain and
  // retired keys are dropped. Done first so a patch of default_chain wins over the older name.
  if ('default_chain_template' in entry) {
    entry.default_chain ??= entry.default_chain_template;
    delete entry.default_chain_template;
  }
  for (const k of RETIRED_REPO_KEYS) delete entry[k];
  layOver(entry, op.patch, 'patch');
  entry.managed = true;
}

function removeRepo(docs: SettingsDocs, op: Extract<RepoOp, { op: 'remove_repo' }>): void {
  const list = entries(docs);
  const i = indexOf(list, op.path);
  if (i < 0) throw new OpRefused(`repo \`${op.path}\` is not in repos.yaml`);
  list.splice(i, 1);
}

function connectDetected(docs: SettingsDocs, op: Extract<RepoOp, { op: 'connect_detected' }>): void {
  const entry = entryAt(docs, op.path);
  if (entry.managed !== false) {
    throw new OpRefused(
      `repo \`${op.path}\` is not a detected entry (\`managed: false\`); it is already connected`,
    );
  }
  entry.managed = true;
}

export const REPO_OPS: SettingsOpSet<RepoOp> = {
  parse: (raw) => parseSettingsOp<RepoOp>(REPO_OP_SCHEMAS, 'repos', raw),
  run(docs, op) {
    switch (op.op) {
      case 'add_repo':
        return addRepo(docs, op);
      case 'set_repo':
        return setRepo(docs, op);
      case 'remove_repo':
        return removeRepo(docs, op);
      case 'connect_detected':
        return connectDetected(docs, op);
    }
  },
};
