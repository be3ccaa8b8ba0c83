import { statSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, parseDocument, type Document, YAMLMap, YAMLSeq } from 'yaml';
import { RETIRED_REPO_KEYS, ReposFile, type RepoEntry } from '../../contract/config/repos.js';
import type { ConfigFiles } from '../config/config-writer.js';
import { readYamlMapping } from '../config/yaml-file.js';
import { formatProblem } from '../../contract/problems.js';

export type ReposRead =
  { ok: true; file: ReposFile; doc: Document; warnings: string[] } | { ok: false; error: string };

interface Cached {
  key: string;
  read: ReposRead;
}
const cache = new Map<string, Cached>();

/**
 * What identifies one version of the file: an atomic write changes the inode, an edit in place the
 * mtime, ctime or size. Milliseconds as floats keep sub-microsecond precision for today's dates,
 * and a plain stat is cheaper than a bigint one on a path every trigger takes.
 */
function fileKey(path: string): string | null {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.mtimeMs}:${st.ctimeMs}:${st.size}` : null;
  } catch {
    return null;
  }
}

/**
 * Reads repos.yaml as it is on disk now: an edit by hand counts from the next request. The parse
 * is reused while the file's identity (inode, mtime, size) is unchanged, which keeps it off the
 * hot path of every trigger.
 */
export function readRepos(configDir: string): ReposRead {
  const path = join(configDir, 'repos.yaml');
  const key = fileKey(path);
  const hit = cache.get(path);
  if (key !== null && hit?.key === key) return hit.read;
  const read = readReposUncached(configDir);
  if (key !== null) cache.set(path, { key, read });
  return read;
}

function readReposUncached(configDir: string): ReposRead {
  const read = readYamlMapping(join(configDir, 'repos.yaml'), 'repos.yaml');
  if (!read.ok) {
    if (read.missing)
      return { ok: true, file: { repos: [] }, doc: parseDocument('repos: []\n'), warnings: [] };
    return { ok: false, error: read.problems.map(formatProblem).join('; ') };
  }
  const raw = (read.doc.toJS() ?? {}) as { repos?: unknown };
  const warnings: string[] = [];
  if (Array.isArray(raw.repos)) {
    raw.repos = raw.repos.map((e: unknown, i) => {
      if (!e || typeof e !== 'object') return e;
      const entry = { ...(e as Record<string, unknown>) };
      for (const k of RETIRED_REPO_KEYS) {
        if (k in entry) {
          warnings.push(`repos.yaml: repos.${i}.${k} is no longer read`);
          delete entry[k];
        }
      }
      if ('default_chain_template' in entry) {
        entry.default_chain ??= entry.default_chain_template;
        delete entry.default_chain_template;
      }
      return entry;
    });
  }
  const parsed = ReposFile.safeParse(raw);
  if (!parsed.success) {
    const msg = parsed.error.issues
      .map((i) => `repos.yaml: ${i.path.join('.') || '(top)'}: ${i.message}`)
      .join('; ');
    return { ok: false, error: msg };
  }
  for (const [i, r] of parsed.data.repos.entries()) {
    if (r.sandbox?.network && r.sandbox.unrestricted_network !== undefined) {
      return {
        ok: false,
        error: `repos.yaml: repos.${i}.sandbox: set either network or unrestricted_network, not both`,
      };
    }
  }
  return { ok: true, file: parsed.data, doc: read.doc, warnings };
}

function entries(doc: Document): YAMLSeq {
  let seq = doc.get('repos', true);
  if (!isSeq(seq)) {
    seq = new YAMLSeq();
    doc.set('repos', seq);
  }
  (seq as YAMLSeq).flow = false;
  return seq as YAMLSeq;
}

/**
 * Writes one entry (or removes it, with null) into repos.yaml, keeping the file's comments and the
 * other entries as written. Keys are set one by one so a comment on a surviving key stays. It runs
 * inside an operation of the home's config writer (`files`) that also read `doc`.
 */
export function writeRepoEntry(
  files: ConfigFiles,
  configDir: string,
  doc: Document,
  path: string,
  entry: RepoEntry | null,
): void {
  const seq = entries(doc);
  const index = seq.items.findIndex((n) => isMap(n) && n.get('path') === path);
  if (entry === null) {
    if (index >= 0) seq.items.splice(index, 1);
  } else if (index < 0) {
    seq.items.push(doc.createNode(entry));
  } else {
    const node = seq.items[index] as YAMLMap;
    for (const key of node.items.map((p) => String((p.key as { value?: unknown }).value ?? p.key))) {
      if (!(key in entry)) node.delete(key);
    }
    for (const [k, v] of Object.entries(entry)) {
      const current = (node.toJSON() as Record<string, unknown>)[k];
      if (JSON.stringify(current) !== JSON.stringify(v)) node.set(k, doc.createNode(v));
    }
  }
  files.write('repos.yaml', doc.toString());
  cache.delete(join(configDir, 'repos.yaml'));
}
