import type { PolicyFile } from '../../../contract/config/policy.js';
import { RepoEntry } from '../../../contract/config/repos.js';
import { CAP_KEYS, ScopePolicy } from '../../../contract/config/scope-policy.js';
import type { z } from 'zod';
import { isObj, type Obj } from '../ops/context.js';

/*
 * The resolved answer of the repos draft (spec drafts.md, "Repos ops"): per entry, what its items
 * run under for the keys the repo layer can set, and whether the repo or something else sets it.
 * Read from the entry as written, key by key, so a file with one bad value still answers the rest.
 */

export type RepoKeySource = 'repo' | 'library' | 'default';

export interface RepoResolved {
  /** Its place in the file's `repos:` list: where its problems are (`repos.<index>.…`). */
  index: number;
  path: string;
  name: string;
  managed: boolean;
  /** The entry as written in the draft's repos.yaml. */
  entry: Obj;
  resolved: Record<string, unknown>;
  sources: Record<string, RepoKeySource>;
}

export interface ReposResolved {
  /** Entries a person connected (`managed` true or absent). */
  repos: RepoResolved[];
  /** Entries Jig found by itself (`managed: false`), waiting for `connect_detected`. */
  detected: RepoResolved[];
}

/** The policy keys of a repo's layer, in the schema's order (`deny_tools` is answered once, above). */
export const REPO_POLICY_KEYS = Object.keys(ScopePolicy.shape).filter((k) => k !== 'deny_tools');

/** The entries of a repos.yaml document that have a path (anything else is only a problem). */
export function repoEntries(doc: unknown): { index: number; path: string; entry: Obj }[] {
  const list = isObj(doc) && Array.isArray(doc.repos) ? doc.repos : [];
  const out: { index: number; path: string; entry: Obj }[] = [];
  list.forEach((e: unknown, index) => {
    if (isObj(e) && typeof e.path === 'string') out.push({ index, path: e.path, entry: e });
  });
  return out;
}

/** The folder name of a path: what a repo is called when its entry names none. */
export function folderName(path: string): string {
  const parts = path.split('/').filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}

/** A value when it is valid for its key; undefined when unset or invalid (a problem says which). */
function valid<T>(schema: z.ZodType<T>, v: unknown): T | undefined {
  const r = schema.safeParse(v);
  return r.success ? r.data : undefined;
}
const policyOf = (e: Obj): Obj => (isObj(e.policy) ? e.policy : {});

const isPolicyKey = (k: string): k is keyof typeof ScopePolicy.shape => Object.hasOwn(ScopePolicy.shape, k);
const isCap = (k: string): k is (typeof CAP_KEYS)[number] => (CAP_KEYS as readonly string[]).includes(k);

/**
 * What a policy key is without the repo's layer: the instance's `defaults` (a cap at the
 * work-item level, since the repo layer sits there), tool and harness lists as the maxima bound
 * them; null when nothing sets one.
 */
function instanceDefault(policy: PolicyFile | null, key: string): unknown {
  const d = policy?.defaults;
  const m = policy?.maxima;
  if (isCap(key)) return d?.work_item?.[key] ?? null;
  switch (key) {
    case 'max_attempts':
      return d?.max_attempts ?? null;
    case 'timeout_minutes':
      return d?.timeout_minutes ?? null;
    case 'allowed_tools':
      return d?.allowed_tools ?? m?.allowed_tools ?? null;
    case 'allowed_harnesses':
      return d?.allowed_harnesses ?? m?.allowed_harnesses ?? null;
    case 'escalation_harness':
      return d?.escalation_harness ?? null;
    case 'grants':
      return [];
    case 'sandbox':
      return policy?.sandbox ?? null;
    default:
      return null;
  }
}

/** A list the repo narrows, as the ratchet applies it: only names the bound above also allows. */
function narrowed(own: string[], bound: unknown): string[] {
  return Array.isArray(bound) ? own.filter((x) => bound.includes(x)) : own;
}

export function resolveRepo(
  index: number,
  path: string,
  e: Obj,
  policy: PolicyFile | null,
  steeringExists: (name: string) => boolean,
): RepoResolved {
  const resolved: Record<string, unknown> = {};
  const sources: Record<string, RepoKeySource> = {};
  const set = (k: string, value: unknown, source: RepoKeySource) => {
    resolved[k] = value;
    sources[k] = source;
  };
  // Steering names the library's entries: what the repo adds is the entries it names that the
  // library has (a name it lacks adds nothing at launch, and is a problem). Without the key, the
  // repo adds nothing and agents read only the steering their library tasks name.
  const steering = valid(RepoEntry.shape.steering, e.steering);
  if (steering) set('steering', steering.filter(steeringExists), 'repo');
  else set('steering', [], 'library');
  // Both the entry's `deny_tools` and its policy's accumulate into one list.
  const deny = [
    ...(valid(RepoEntry.shape.deny_tools, e.deny_tools) ?? []),
    ...(valid(ScopePolicy.shape.deny_tools, policyOf(e).deny_tools) ?? []),
  ];
  set('deny_tools', [...new Set(deny)], deny.length || 'deny_tools' in e ? 'repo' : 'default');
  const models = valid(RepoEntry.shape.models, e.models);
  set('models', models ?? {}, models ? 'repo' : 'default');
  for (const k of REPO_POLICY_KEYS) {
    if (!isPolicyKey(k)) continue;
    const keySchema: z.ZodType<unknown> = ScopePolicy.shape[k];
    let own: unknown = valid(keySchema, policyOf(e)[k]);
    // The sandbox is set once, by the entry's own `sandbox`; `policy.sandbox` may only repeat it.
    if (k === 'sandbox') own = valid(RepoEntry.shape.sandbox, e.sandbox) ?? own;
    const dflt = instanceDefault(policy, k);
    if (own === undefined) {
      set(k, dflt, 'default');
      continue;
    }
    if ((k === 'allowed_tools' || k === 'allowed_harnesses') && Array.isArray(own)) {
      const bound = k === 'allowed_tools' ? dflt : (policy?.maxima?.allowed_harnesses ?? null);
      own = narrowed(own.map(String), bound);
    }
    set(k, own, 'repo');
  }
  const name = valid(RepoEntry.shape.name, e.name);
  return {
    index,
    path,
    name: name ?? folderName(path),
    managed: e.managed !== false,
    entry: e,
    resolved,
    sources,
  };
}

export function resolveRepos(
  doc: unknown,
  policy: PolicyFile | null,
  steeringExists: (name: string) => boolean,
): ReposResolved {
  const out: ReposResolved = { repos: [], detected: [] };
  for (const { index, path, entry } of repoEntries(doc)) {
    const r = resolveRepo(index, path, entry, policy, steeringExists);
    (r.managed ? out.repos : out.detected).push(r);
  }
  return out;
}
