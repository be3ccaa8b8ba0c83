import { casesOf, namedVariants, type Case, type PrototypeWorld, type Route } from './prototype-routes.js';

/*
 * The cases of test/hardening-prototype-names.test.ts beyond the routes' own fields: draft ops,
 * an item's draft, keys of the draft files' text, MCP's names; and the request that sends a case.
 */

/** One file of each draft area; setup reads its published text into `PrototypeWorld.published`. */
export const DRAFT_FILES = [
  ['chains', 'gated', 'chains/gated.yaml'],
  ['library', 'library', 'library.yaml'],
  ['harnesses', 'harnesses', 'harnesses.yaml'],
  ['repos', 'repos', 'repos.yaml'],
  ['policy', 'policy', 'policy.yaml'],
  ['intake', 'intake', 'intake.yaml'],
] as const;

/**
 * One op of each kind per draft area, with real names; each case puts a name in one of its fields.
 * Sent as previews: nothing is stored.
 */
function draftOpCases(w: PrototypeWorld, n: string): Case[] {
  const { repo } = w;
  const areas: [area: string, key: string, ops: Record<string, unknown>[]][] = [
    [
      'chains',
      'gated',
      [
        { op: 'add_node', at: 0, id: 'extra', kind: 'exec' },
        { op: 'add_step', container: 'build', at: 0, id: 'more' },
        { op: 'add_task', container: 'build', step: 'main', kind: 'subprocess', id: 'again' },
        { op: 'add_task', node: 'build', slot: 'auto_review', extends: 'code_review' },
        { op: 'add_handler', path: 'build', kind: 'on_failure' },
        { op: 'remove_handler', path: 'build', kind: 'on_failure' },
        { op: 'move', path: 'review', to: 0, to_step: 'main' },
        { op: 'remove', path: 'finish' },
        { op: 'extend', node: 'build', base: 'verification' },
        { op: 'change_base', node: 'build', base: 'implementation' },
        { op: 'new_chain', from: 'default' },
        { op: 'set_field', path: 'build', field: 'description', value: 'x' },
        // A dotted field walks mappings: `__proto__.x` must not reach Object.prototype.
        { op: 'set_field', path: 'build', field: 'policy.max_attempts', value: 2 },
        { op: 'set_field', path: 'review', field: 'reject_to', value: 'build' },
        { op: 'reset_field', path: 'build', field: 'policy.max_attempts' },
        { op: 'rename', path: 'build', id: 'built' },
        { op: 'set_fragment', path: 'build', yaml: 'id: build\nkind: exec\n' },
        { op: 'move_to_library', path: 'build', name: 'built' },
      ],
    ],
    [
      'chains',
      'default',
      [
        // Fields an agent task names things with: a profile, a harness, steering.
        { op: 'set_field', path: 'spec.main.author', field: 'profile', value: 'fast' },
        { op: 'set_field', path: 'spec.main.author', field: 'harness', value: 'claude' },
        { op: 'set_field', path: 'spec.main.author', field: 'steering', value: ['style'] },
      ],
    ],
    [
      'library',
      'library',
      [
        { op: 'add_component', section: 'tasks', name: 'extra', kind: 'agent' },
        { op: 'copy_component', section: 'tasks', from: 'addon.task', name: 'copied' },
        { op: 'set_field', path: 'tasks.implementer', field: 'description', value: 'x' },
        { op: 'set_field', path: 'tasks.implementer', field: 'on_failure.tasks', value: [] },
        { op: 'reset_field', path: 'tasks.implementer', field: 'description' },
        { op: 'rename', path: 'tasks.implementer', id: 'impl' },
        { op: 'remove', path: 'tasks.implementer' },
      ],
    ],
    [
      'harnesses',
      'harnesses',
      [
        { op: 'set_access', harness: 'codex', state: 'never' },
        { op: 'set_allowed_tools', tools: ['Read'] },
        { op: 'set_escalation', harness: 'codex', grants: ['git-commit'] },
        { op: 'set_harness', id: 'codex', patch: { enabled: true, defaults: { effort: 'high' } } },
        { op: 'add_profile', name: 'cheap', copy_from: 'fast' },
        { op: 'rename_profile', name: 'fast', to: 'quick' },
        { op: 'remove_profile', name: 'fast' },
        { op: 'set_profile', name: 'fast', patch: { providers: { codex: { model: 'x' } } } },
      ],
    ],
    [
      'repos',
      'repos',
      [
        { op: 'add_repo', path: '/tmp/none', fields: { enabled: true } },
        { op: 'set_repo', path: repo, patch: { default_chain_template: 'default', steering: ['style'] } },
        { op: 'remove_repo', path: repo },
        { op: 'connect_detected', path: '/nope' },
      ],
    ],
    [
      'policy',
      'policy',
      [
        { op: 'set_value', scope: 'limits', key: 'budget.daily_usd', value: 5 },
        { op: 'set_loop', key: 'build.fix_loop', max_attempts: 2 },
        { op: 'remove_loop', key: 'build.fix_loop' },
      ],
    ],
    [
      'intake',
      'intake',
      [
        { op: 'set_intake', patch: { enabled: false, repos: [repo] } },
        { op: 'add_schedule', cron: '0 9 * * 1', repo, chain: 'gated', title: 'Weekly' },
        { op: 'set_schedule', index: 0, patch: { chain: 'gated', repo } },
        { op: 'remove_schedule', index: 0 },
      ],
    ],
  ];
  const cases: Case[] = [];
  for (const [area, key, ops] of areas) {
    const url = `/api/drafts/${area}/${key}/ops?preview=true`;
    const route = 'POST /api/drafts/:area/:key/ops';
    const one = (what: string, op: unknown): void => {
      cases.push({ route, name: n, what: `${area} ${what}`, method: 'POST', url, body: { ops: [op] } });
    };
    one(`op=${n}`, { op: n });
    for (const op of ops) for (const v of namedVariants(op, n)) one(JSON.stringify(v), v);
  }
  return cases;
}

/** The ops of an item's draft, each with a name in one of its fields. */
function itemDraftCases(w: PrototypeWorld, n: string): Case[] {
  const ops: Record<string, unknown>[] = [
    { op: 'override', path: 'finish', task_config: { model: 'x' }, policy: { max_attempts: 2 } },
    { op: 'add_node', after: 'review', node: { id: 'extra', extends: 'verification' } },
    {
      op: 'add_node',
      after: 'review',
      node: { id: 'extra', tasks: [{ id: 'again', extends: 'implementer' }] },
    },
    { op: 'remove_node', node: 'finish' },
    { op: 'skip', path: 'finish.main.last' },
  ];
  return ops.flatMap((op) =>
    namedVariants(op, n).map((v): Case => ({
      route: 'PUT /api/work-items/:id/draft',
      name: n,
      what: JSON.stringify(v),
      method: 'PUT',
      url: `/api/work-items/${w.item}/draft`,
      body: { ops: [v] },
    })),
  );
}

/**
 * Names as keys of a file's text: each draft file with a top-level key of the name, its draft
 * discarded after each (so every case starts from the published file), and the two template saves
 * (refused: an unknown key is a problem, so nothing is written).
 */
function fileTextCases(w: PrototypeWorld, n: string): Case[] {
  const cases: Case[] = [];
  for (const [area, key, file] of DRAFT_FILES) {
    const text = `${w.published.get(file)}\n${n}: 1\n`;
    cases.push({
      route: 'PUT /api/drafts/:area/:key/files/:file',
      name: n,
      what: `${file} with a key ${n}`,
      method: 'PUT',
      url: `/api/drafts/${area}/${key}/files/${encodeURIComponent(file)}`,
      body: { text },
      undo: { method: 'DELETE', url: `/api/drafts/${area}/${key}` },
    });
  }
  cases.push(
    {
      route: 'PUT /api/templates/chains/:id/file',
      name: n,
      what: `gated with a key ${n}`,
      method: 'PUT',
      url: '/api/templates/chains/gated/file',
      body: { text: `${w.published.get('chains/gated.yaml')}\n${n}: 1\n` },
    },
    {
      route: 'PUT /api/templates/library',
      name: n,
      what: `library with a key ${n}`,
      method: 'PUT',
      url: '/api/templates/library',
      body: { text: `${w.published.get('library.yaml')}\n${n}: 1\n` },
    },
  );
  return cases;
}

/** Names as MCP gives them: a JSON-RPC method and a tool's name. Their answers are compared whole. */
function mcpCases(n: string): Case[] {
  const call = (what: string, body: unknown): Case => ({
    route: 'POST /mcp',
    name: n,
    what,
    method: 'POST',
    url: '/mcp',
    headers: { accept: 'application/json, text/event-stream' },
    body,
    whole: true,
  });
  return [
    call(`method=${n}`, { jsonrpc: '2.0', id: 1, method: n, params: {} }),
    call(`tools/call name=${n}`, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: n, arguments: {} },
    }),
  ];
}

/** An answer: status 0 when none came. */
export interface Answer {
  status: number;
  text: string;
  json: any;
}

/** One request, bounded: a hang is a failure of its own, not a stalled file. */
export async function send(url: string, c: Case): Promise<Answer> {
  const headers: Record<string, string> = { ...c.headers };
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(`${url}${c.url}`, {
      method: c.method,
      headers,
      ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: res.status, text, json };
  } catch (e) {
    return { status: 0, text: `no answer: ${(e as Error).message}`, json: null };
  }
}

const ORDER = ['GET', 'PATCH', 'PUT', 'POST', 'DELETE'];

/** Every case for one name, in the order they are sent (reads first). */
export function allCases(w: PrototypeWorld, routes: readonly Route[], n: string): Case[] {
  return [
    ...routes.flatMap((r) => casesOf(w, r, n)),
    ...draftOpCases(w, n),
    ...itemDraftCases(w, n),
    ...fileTextCases(w, n),
    ...mcpCases(n),
  ].sort((a, b) => ORDER.indexOf(a.method) - ORDER.indexOf(b.method));
}
