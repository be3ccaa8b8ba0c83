import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './helpers/engine.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { makeRepo } from './helpers/git.js';
import { allCases, DRAFT_FILES, send, type Answer } from './helpers/prototype-cases.js';
import {
  contracts,
  documentedRoutes,
  type Case,
  type PrototypeWorld,
  type Route,
} from './helpers/prototype-routes.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * Names `Object.prototype` has (`constructor`, `__proto__`, ...) as every name a request gives: each
 * path param of every route in docs/routes.md in turn (the others real), each string, list or
 * mapping field of its query and body, each field of every draft op, keys of the draft files' text,
 * and MCP's method and tool names. A name looked up in a plain object finds the prototype's member:
 * that answered 500 (`GET /api/drafts/chains/constructor`, `/api/addons/constructor`), took
 * Object.prototype for a library node, or wrote to it for the whole process.
 *
 * Every answer must be a 2xx or a catalogue error `{detail, code}`, never a 5xx, and the same as
 * the answer to a twin name that no prototype has; a `__proto__` key in a JSON body is refused by
 * the body parser, naming it. At the end a few answers no case may change are compared with the
 * start: a name that reached Object.prototype changes them for twin and name alike.
 *
 * Requests go one at a time in a fixed order (per name, reads before writes, so that a write which
 * may rightly create a thing of that name cannot hide a read's failure): the run is deterministic.
 */

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

/**
 * Each name's twin: as long, of the same characters, and no member of any prototype. Each case is
 * sent with the twin first; the name must get the answer the twin got (status, code, and detail with
 * the twin read as the name): the error the route gives any other unknown name.
 */
const TWINS = ['constructox', '__protx__', 'toStrinx', 'hasOwnPropertx', 'valueOx', 'prototypx'];

/*
 * Routes not sent, and why:
 * - POST /api/apply/restart stops the process under a service manager.
 * - GET /api/ws/events is a WebSocket (test/fuzz-routes.test.ts handshakes with it); it takes no name.
 * - GET /mcp and DELETE /mcp hold or end an MCP session and take no name; POST /mcp gets the name
 *   cases below (a JSON-RPC method, a tool's name).
 * The routes that open an editor (documents/:id/open, artifact/open, artifacts/:kind/open,
 * open-worktree) are sent: the server runs with JIG_EDITOR=true (and no VISUAL or EDITOR), so a
 * request that got as far as opening one would run /bin/true, and no window opens.
 */
const SKIPPED = new Set(['POST /api/apply/restart', 'GET /api/ws/events', 'GET /mcp', 'DELETE /mcp']);

const SPEC_NODE = `
nodes:
  - id: specify
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: spec
        prompt: Write the spec.
`;

/*
 * Answers no case changes (its writes are refused or previews) but a change to Object.prototype
 * would: a name that reached it (`tasks.__proto__`, a field `__proto__.x`) changes every object of
 * the process, for twin and name alike, so only a comparison with the start shows it.
 */
const CANARIES = [
  '/api/templates/chains/gated/resolved',
  '/api/templates/chains/default/resolved',
  '/api/drafts/library/library',
  '/api/harnesses/profiles',
];
const canaries = new Map<string, string>();

let jig: JigProcess;
/** The server, its repo and item, and the draft files' published texts: what the cases are built from. */
let world: PrototypeWorld;

beforeAll(async () => {
  const home = tempHome('jig-names-');
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  // The gated chain after a node that writes the spec: an item filed with the spec attached passes
  // it, the spec put where the node would have, a document of the walk (walk.artifacts): document
  // kinds then reach a lookup.
  writeFileSync(
    join(home, 'config', 'chains', 'gated.yaml'),
    `${SPEC_NODE}${GATED_CHAIN.replace(/^\s*nodes:\n/, '')}`,
  );
  // Unsupervised (no restart), the update feed inline (no request leaves the machine), and an
  // editor that opens nothing.
  const feed = `data:application/json,${encodeURIComponent('{"dist-tags":{"latest":"2.0.0"}}')}`;
  jig = await startJig({
    home,
    env: {
      INVOCATION_ID: '',
      JIG_SUPERVISED: '',
      JIG_UPDATE_FEED: feed,
      JIG_EDITOR: 'true',
      VISUAL: '',
      EDITOR: '',
    },
  });
  const repo = makeRepo();
  const connected = await http(`${jig.url}/api/repos`, {
    method: 'POST',
    body: { path: repo, test_command: '' },
  });
  expect(connected.status, connected.text).toBe(201);
  const filed = await http(`${jig.url}/api/work-items`, {
    method: 'POST',
    body: {
      title: 'Prototype names',
      repo,
      chain: 'gated',
      start: true,
      attachments: { spec: { text: '# spec\n' } },
    },
  });
  expect(filed.status, filed.text).toBe(201);
  const item: string = filed.json.id;
  await until(jig, item, (i) => i.stop?.kind === 'gate');
  const spec = await http(`${jig.url}/api/work-items/${item}/artifacts/spec`);
  expect(spec.status, spec.text).toBe(200);
  for (const path of CANARIES) canaries.set(path, (await http(`${jig.url}${path}`)).text);
  const published = new Map<string, string>();
  for (const [area, key, file] of DRAFT_FILES) {
    const d = await http(`${jig.url}/api/drafts/${area}/${key}`);
    expect(typeof d.json?.published?.[file], `${area} ${file}`).toBe('string');
    published.set(file, d.json.published[file]);
  }
  world = { url: jig.url, repo, item, published };
}, 60_000);

afterAll(cleanupAll);

/** What of an answer must not depend on the name: its status, an error's code and detail. */
function gist(a: Answer, whole: boolean, twin?: string, name?: string): string {
  const read = (text: string): string => (twin === undefined ? text : text.replaceAll(twin, name!));
  if (a.status >= 200 && a.status < 300) return whole ? `${a.status} ${read(a.text)}` : String(a.status);
  return `${a.status} ${a.json?.code} ${read(String(a.json?.detail ?? a.text))}`;
}

/** A `__proto__` key in a JSON body: the body parser refuses it before any route reads it. */
const poisoned = (c: Case): boolean =>
  c.body !== undefined && JSON.stringify(c.body).includes('"__proto__":');

describe('names Object.prototype has, in every route', () => {
  let sent: Route[];

  it('every documented route has its contract, so every field is known', async () => {
    const byKey = await contracts();
    const routes: Route[] = documentedRoutes().map((r) => ({
      ...r,
      contract: byKey.get(`${r.method} ${r.path}`),
    }));
    expect(routes.filter((r) => !r.contract).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(routes.length).toBe(byKey.size);
    sent = routes.filter((r) => !SKIPPED.has(`${r.method} ${r.path}`));
  });

  // A test per name, each bounded on its own: the whole took over two minutes on a loaded machine.
  for (const [i, n] of NAMES.entries()) {
    const twin = TWINS[i]!;
    it(`${n} answers as ${twin} does: no 5xx, a catalogue error or a 2xx`, async () => {
      const cases = allCases(world, sent, n);
      const twins = allCases(world, sent, twin);
      expect(twins.map((c) => c.what.replaceAll(twin, n))).toEqual(cases.map((c) => c.what));
      // Each path param of each route gets the name.
      for (const r of sent)
        for (const [, p] of r.path.matchAll(/:(\w+)/g))
          expect(cases.some((c) => c.route === `${r.method} ${r.path}` && c.what.startsWith(`:${p}=`))).toBe(
            true,
          );
      const bad: string[] = [];
      const unlike: string[] = [];
      for (const [j, c] of cases.entries()) {
        const t = await send(jig.url, twins[j]!);
        if (twins[j]!.undo) await send(jig.url, { ...twins[j]!, ...twins[j]!.undo, body: undefined });
        const r = await send(jig.url, c);
        if (c.undo) await send(jig.url, { ...c, ...c.undo, body: undefined });
        const where = `${c.route} [${c.what}]`;
        const ok = r.status >= 200 && r.status < 300;
        if (r.status === 0 || r.status >= 500 || (!ok && typeof r.json?.code !== 'string'))
          bad.push(`${where}: ${r.status} ${r.text.slice(0, 200)}`);
        else if (poisoned(c)) {
          if (
            r.status !== 422 ||
            r.json?.code !== 'validation_failed' ||
            !r.json.detail.includes('__proto__')
          )
            unlike.push(`${where}: ${gist(r, false)} (a __proto__ key: 422 naming it)`);
        } else if (gist(r, c.whole === true) !== gist(t, c.whole === true, twin, n))
          unlike.push(
            `${where}: ${gist(r, c.whole === true).slice(0, 240)} | as ${twin}: ${gist(t, c.whole === true).slice(0, 240)}`,
          );
      }
      console.info(`prototype name ${n}: ${cases.length} requests and as many twins`);
      expect({ bad, unlike }).toEqual({ bad: [], unlike: [] });
    }, 120_000);
  }

  it('no name reached Object.prototype: the canaries answer as at the start, and the server is up', async () => {
    const changed: string[] = [];
    for (const [path, text] of canaries)
      if ((await http(`${jig.url}${path}`)).text !== text) changed.push(path);
    expect(changed).toEqual([]);
    expect((await http(`${jig.url}/api/health`)).status).toBe(200);
    expect(jig.proc.exitCode).toBeNull();
  });
});
