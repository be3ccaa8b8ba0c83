import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { RouteContract } from '../../src/contract/route.js';
import { repoRoot } from './server.js';

/*
 * The routes test/hardening-prototype-names.test.ts sends names to, and each route's cases: every
 * path param, and every string, list or mapping field of its query and body, naming the name.
 */

/** What the cases are built from: the server's address and the things setup made there. */
export interface PrototypeWorld {
  url: string;
  /** A connected repo. */
  repo: string;
  /** An item stopped at its gate `review`: its chain is frozen, so its draft and gates answer. */
  item: string;
  /** Each draft file's published text, by file (read at the start). */
  published: ReadonlyMap<string, string>;
}

/** Fields whose value is free text, a secret, a command or an address, never a name looked up. */
const NOT_NAMES = new Set([
  'title',
  'description',
  'note',
  'message',
  'body',
  'summary',
  'text',
  'yaml',
  'reason',
  'suggestion',
  'steer',
  'password',
  'current',
  'secret',
  'url',
  'base_url',
  'chat_id',
  'q',
  'cursor',
  'digest',
  'next',
  'tool_use_id',
  'claim',
  'cron',
  'test_command',
  'setup_command',
  // PUT /api/access: addresses the server would take at its next start.
  'bind',
  'allowed_hosts',
]);

export interface Route {
  method: string;
  path: string;
  contract: RouteContract | undefined;
}

export interface Case {
  route: string;
  /** The name (or its twin) the case sends. */
  name: string;
  what: string;
  method: string;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Compare a 2xx answer's body too (MCP answers its errors in a 200). */
  whole?: boolean;
  /** Sent right after the case (its answer not judged), so that the next case finds the state as it was. */
  undo?: { method: string; url: string };
}

/** Every route contract under src/contract/routes/ (objects and lists of them), by `METHOD path`. */
export async function contracts(): Promise<Map<string, RouteContract>> {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) files.push(p);
    }
  };
  walk(join(repoRoot, 'src', 'contract', 'routes'));
  const out = new Map<string, RouteContract>();
  for (const f of files.sort()) {
    const mod: Record<string, unknown> = await import(pathToFileURL(f).href);
    for (const v of Object.values(mod))
      for (const r of Array.isArray(v) ? v : [v])
        if (r && typeof r === 'object' && typeof r.method === 'string' && typeof r.path === 'string')
          out.set(`${r.method} ${r.path}`, r as RouteContract);
  }
  return out;
}

/** Every route the app registers, as docs/routes.md lists them (test/routes-index.test.ts keeps it true). */
export function documentedRoutes(): { method: string; path: string }[] {
  const text = readFileSync(join(repoRoot, 'docs', 'routes.md'), 'utf8');
  return [...text.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/gm)].map((m) => ({
    method: m[1]!,
    path: m[2]!,
  }));
}

type FieldShape = 'string' | 'list' | 'mapping';

/** The fields of a query or body schema that can carry a name: strings, lists of strings, mappings. */
function nameFields(schema: z.ZodType | undefined): [string, FieldShape][] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as any;
  const variants: any[] = json.properties ? [json] : [...(json.anyOf ?? []), ...(json.oneOf ?? [])];
  const out = new Map<string, FieldShape>();
  for (const v of variants)
    for (const [k, p] of Object.entries<any>(v.properties ?? {})) {
      const alts: any[] = [p, ...(p.anyOf ?? [])];
      const types = alts.flatMap((a) => [a.type].flat());
      if (types.includes('string') || p.enum) out.set(k, 'string');
      else if (alts.some((a) => a.type === 'array' && a.items?.type === 'string')) out.set(k, 'list');
      else if (types.includes('object')) out.set(k, 'mapping');
    }
  return [...out].filter(([k]) => !NOT_NAMES.has(k)).sort(([a], [b]) => a.localeCompare(b));
}

/** A field of that shape naming `n`. */
function naming(shape: FieldShape, n: string): unknown {
  if (shape === 'string') return n;
  if (shape === 'list') return [n];
  return { [n]: {} };
}

/** Keys whose value is a dotted path or may be extended into one (`build` -> `build.<name>`). */
const PATH_KEYS = new Set(['path', 'container', 'node', 'task', 'ref', 'key']);

/** Each string naming `n` in the place of `v`: all of it, each dotted segment, or one more segment. */
function stringVariants(key: string, v: string, n: string): string[] {
  const segs = v.split('.');
  const out = [n, ...(segs.length > 1 ? segs.map((_, i) => segs.with(i, n).join('.')) : [])];
  if (PATH_KEYS.has(key)) out.push(`${v}.${n}`);
  return [...new Set(out)];
}

/**
 * Each way to put `n` in a JSON value once: a string leaf replaced by it (or a segment of it), or a
 * key named by it added to a mapping (with the value of the mapping's first key, or `{}`).
 * Free-text keys are left alone.
 */
export function namedVariants(value: unknown, n: string, key = '', depth = 0): unknown[] {
  if (depth > 3) return [];
  if (typeof value === 'string') return stringVariants(key, value, n);
  if (Array.isArray(value))
    return value.flatMap((v, i) => namedVariants(v, n, key, depth + 1).map((x) => value.with(i, x)));
  if (value === null || typeof value !== 'object') return [];
  const obj = value as Record<string, unknown>;
  const out: unknown[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'op' || NOT_NAMES.has(k)) continue;
    for (const x of namedVariants(v, n, k, depth + 1)) out.push({ ...obj, [k]: x });
  }
  if (depth > 0) out.push({ ...obj, [n]: Object.values(obj)[0] ?? {} });
  return out;
}

/** A real value for a path param, so that substituting another param reaches past this one. */
function realParam(w: PrototypeWorld, path: string, param: string): string {
  const table: Record<string, string> = {
    id: path.includes('work-items') ? w.item : path.includes('/chains/') ? 'gated' : 'claude',
    area: 'chains',
    key: path.includes('/policy/') ? 'policy' : 'gated',
    file: path.startsWith('/api/drafts') ? encodeURIComponent('chains/gated.yaml') : 'nope.js',
    gate: 'review',
    kind: 'spec',
    node: 'build',
    session: 'snope',
    thread: 'tnope',
    ask: 'anope',
    screen: 'harnesses',
    name: 'nope',
    namespace: 'nope',
    ref: 'tasks.implementer',
    pkg: 'redoc',
  };
  const v = table[param];
  if (v === undefined) throw new Error(`no real value for :${param} of ${path}`);
  return v;
}

/**
 * The query and body a route takes to get past its validation, where that is cheap; the name cases
 * put one name in one field of them. Anything not here gets no query and `{}` for a write.
 */
function baseOf(
  w: PrototypeWorld,
  method: string,
  path: string,
): { query: Record<string, string>; body?: unknown } {
  const { repo, item } = w;
  const q = (query: Record<string, string>, body?: unknown) => ({ query, body });
  switch (`${method} ${path}`) {
    case 'POST /api/work-items':
      // A dry run files nothing.
      return q({ dry_run: 'true' }, { title: 'Names', repo, chain: 'gated' });
    case 'POST /api/triggers':
      return q({}, { title: 'Names', repo, chain: 'no-such-chain' });
    case 'PATCH /api/work-items/:id':
      return q({}, { title: 'Prototype names' });
    case 'GET /api/templates/steering/preview':
      return q({ chain: 'default', task: 'spec.main.author', repo });
    case 'GET /api/drafts/:area/:key/fragment':
      return q({ path: 'build' });
    case 'GET /api/drafts/policy/:key/preview':
      return q({ chain: 'gated' });
    case 'GET /api/search':
      return q({ q: 'names' });
    case 'GET /api/repos/forge':
    case 'DELETE /api/repos':
      return q({ path: repo });
    case 'PATCH /api/repos':
      return q({ path: repo }, {});
    case 'POST /api/repos':
    case 'POST /api/repos/probe':
      return q({}, { path: repo });
    case 'PUT /api/policy':
      return q({}, { loops: {}, default: {} });
    case 'POST /api/addons':
      return q({}, { addon: 'nope', collection: 'nope', review: 'nope' });
    case 'POST /api/addons/review':
      return q({}, { addon: 'nope', collection: 'nope' });
    case 'POST /api/addons/:namespace/update':
      return q({}, { review: 'nope' });
    case 'PATCH /api/addons/collections/:name':
      return q({}, { auto_update: false });
    case 'PUT /api/drafts/:area/:key/files/:file':
      return q({}, { text: 'nodes: []\n' });
    case 'POST /api/drafts/:area/:key/ops':
      return q({ preview: 'true' }, { ops: [{ op: 'remove', path: 'finish' }] });
    case 'PUT /api/templates/chains/:id/file':
      // Not a chain: the save is refused with its problems, so no chain of the name is written.
      return q({}, { text: 'nodes: 1\n' });
    case 'PUT /api/work-items/:id/draft':
      return q({}, { ops: [{ op: 'skip', path: 'finish.main.last' }] });
    case 'POST /api/work-items/:id/gates/:gate/reject':
      return q({}, { note: 'no' });
    case 'POST /api/work-items/:id/gates/:gate/review':
    case 'POST /api/work-items/:id/review':
      // A comment: it decides nothing, so the item stays at its gate.
      return q({}, { outcome: 'comment' });
    case 'POST /api/work-items/:id/permission-asks/:ask/answer':
      return q({}, { decision: 'deny' });
    case 'POST /api/work-items/:id/permission-check':
      return q({}, { task: 'build.main.touch', cli: 'codex', tool_name: 'Bash', input: { command: 'ls' } });
    case 'POST /api/work-items/:id/permission-asks':
      return q({}, { tool_name: 'Bash', input: { command: 'ls' } });
    case 'POST /api/work-items/:id/progress':
      return q({}, { task: 'build.main.touch' });
    case 'POST /api/work-items/:id/threads':
      return q({}, { body: 'a comment' });
    case 'POST /api/work-items/bulk':
      return q({}, { action: 'pause', ids: [item] });
    case 'PUT /api/work-items/:id/viewed':
    case 'DELETE /api/work-items/:id/viewed':
      return q({}, { path: 'README.md' });
    case 'POST /api/access/rotate-tokens':
      return q({}, { tokens: [] });
    default:
      return method === 'GET' ? q({}) : q({}, {});
  }
}

/** Headers a route needs: the worker routes are a worker's of its own item. */
function headersOf(w: PrototypeWorld, path: string): Record<string, string> | undefined {
  return /permission-check|permission-asks$|progress$/.test(path) ? { 'x-jig-work-item': w.item } : undefined;
}

const fill = (w: PrototypeWorld, path: string, values: Record<string, string>): string =>
  path.replace(/:(\w+)/g, (_, p: string) => values[p] ?? realParam(w, path, p));

const withQuery = (url: string, query: Record<string, string>): string => {
  const s = new URLSearchParams(query).toString();
  return s ? `${url}?${s}` : url;
};

export function casesOf(w: PrototypeWorld, route: Route, n: string): Case[] {
  const { method, path, contract } = route;
  const key = `${method} ${path}`;
  const base = baseOf(w, method, path);
  const headers = headersOf(w, path);
  const cases: Case[] = [];
  const one = (what: string, url: string, body: unknown): void => {
    cases.push({
      route: key,
      name: n,
      what,
      method,
      url,
      ...(method === 'GET' ? {} : { body: body ?? {} }),
      ...(headers ? { headers } : {}),
    });
  };
  for (const [, p] of path.matchAll(/:(\w+)/g)) {
    const real = decodeURIComponent(realParam(w, path, p!));
    // The name whole, or as a segment of a dotted value (`tasks.<name>`).
    for (const v of stringVariants('', real, n))
      one(`:${p}=${v}`, withQuery(fill(w, path, { [p!]: encodeURIComponent(v) }), base.query), base.body);
  }
  for (const [f, shape] of nameFields(contract?.query))
    if (shape === 'string')
      for (const v of base.query[f] === undefined ? [n] : stringVariants(f, base.query[f], n))
        one(`?${f}=${v}`, withQuery(fill(w, path, {}), { ...base.query, [f]: v }), base.body);
  if (method !== 'GET')
    for (const [f, shape] of nameFields(contract?.body))
      one(`body.${f}=${n}`, withQuery(fill(w, path, {}), base.query), {
        ...(base.body as object),
        [f]: naming(shape, n),
      });
  return cases;
}
