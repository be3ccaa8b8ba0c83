import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, runJig, startJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * Search on a real server: items by a word of their title or description (the title ranking
 * higher), a document by its text, an event's text, a review thread, a chain and the library; kept
 * current as things change; a rescan with its progress and health's figures; the CLI verbs.
 */

const DOC_CHAIN = `# the capybara chain
nodes:
  - id: write
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: spec
        prompt: Write the spec.
  - id: spec_review
    kind: gate
    artifact: spec
`;

let jig: JigProcess;
let repo: string;
const ids: Record<string, string> = {};

const api = (path: string) => http(`${jig.url}${path}`);
const find = async (q: string, more = '') =>
  (await api(`/api/search?q=${encodeURIComponent(q)}${more}`)).json.results as any[];

beforeAll(async () => {
  const home = tempHome();
  repo = makeRepo({ 'README.md': '# a\n' });
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  writeFileSync(join(home, 'config', 'chains', 'gated.yaml'), GATED_CHAIN);
  writeFileSync(join(home, 'config', 'chains', 'doc.yaml'), DOC_CHAIN);
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    stringify({
      repos: [
        {
          path: repo,
          test_command: '',
          setup_command: '',
          default_chain: 'gated',
          env: {
            FAKE_AGENT_MODE: 'done',
            FAKE_AGENT_ARTIFACT: '# Spec\n\nThe zebra protocol needs a handshake.\n',
          },
        },
      ],
    }),
  );
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  jig = await startJig({ home });
  const file = async (key: string, body: Record<string, unknown>) => {
    const r = await post(jig, '/api/work-items', { repo, ...body });
    expect(r.status, r.text).toBe(201);
    ids[key] = r.json.id;
  };
  await file('parser', {
    title: 'Fix the parser crash',
    description: 'The tokenizer fails on nested brackets.',
  });
  await file('tok', { title: 'Tokenizer cleanup', description: 'Small things.' });
  await file('doc', { title: 'Write a spec', chain: 'doc', start: true });
  await file('gate', { title: 'Gated work', start: true });
  await until(jig, ids.doc!, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
  await until(jig, ids.gate!, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
});
afterAll(cleanupAll);

describe('search', () => {
  it('finds an item by a word of its description, the title ranking higher, with snippets', async () => {
    const hits = await find('tokenizer', '&kind=item');
    expect(hits.map((h) => h.ref)).toEqual([ids.tok, ids.parser]);
    expect(hits[1]).toEqual({
      kind: 'item',
      ref: ids.parser,
      work_item_id: ids.parser,
      repo,
      title: 'Fix the parser crash',
      snippet: expect.stringContaining('The «tokenizer» fails on nested brackets.'),
      score: expect.any(Number),
    });
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    // Every word must match; the last is a prefix; stems match ("fail" finds "fails").
    expect((await find('nested brack', '&kind=item')).map((h) => h.ref)).toEqual([ids.parser]);
    expect((await find('tokenizer fail', '&kind=item')).map((h) => h.ref)).toEqual([ids.parser]);
    expect(await find('tokenizer zebra')).toEqual([]);
    // FTS5 syntax typed by a person (quotes, `*`, `-`, `:`, brackets) is read as plain words.
    expect((await find('"parser"* -crash: (', '&kind=item')).map((h) => h.ref)).toEqual([ids.parser]);
  });

  it('finds a document by its text, a thread, an event’s text, a chain and the library; kept current', async () => {
    await expect
      .poll(async () => (await find('zebra')).map((h) => [h.kind, h.ref]))
      .toEqual([['document', `${ids.doc}:spec`]]);
    const thread = await post(jig, `/api/work-items/${ids.gate}/threads`, {
      body: 'Check the walrus case first.',
      file_path: 'out.txt',
      start_line: 1,
    });
    expect(thread.status, thread.text).toBe(201);
    expect((await find('walrus')).map((h) => [h.kind, h.work_item_id])).toEqual([['thread', ids.gate]]);
    expect(
      (await post(jig, `/api/work-items/${ids.tok}/cancel`, { reason: 'superseded by the quokka migration' }))
        .status,
    ).toBe(200);
    expect((await find('quokka')).map((h) => [h.kind, h.work_item_id, h.title])).toEqual([
      ['event', ids.tok, 'work_item_cancelled'],
    ]);
    const renamed = await http(`${jig.url}/api/work-items/${ids.parser}`, {
      method: 'PATCH',
      body: { title: 'Fix the lexer crash' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await find('lexer', '&kind=item')).map((h) => h.ref)).toEqual([ids.parser]);
    expect(await find('parser', '&kind=item')).toEqual([]);
    expect((await find('capybara')).map((h) => [h.kind, h.ref])).toEqual([['chain', 'doc']]);
    const lib = await find('prompt', '&kind=library&limit=5');
    expect(lib.length).toBeGreaterThan(0);
    expect(lib.every((h) => h.kind === 'library' && /^(nodes|steps|tasks|steering):/.test(h.ref))).toBe(true);
  });

  it('refuses a query with no word, naming q', async () => {
    const r = await api('/api/search?q=%21%21%21');
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ code: 'validation_failed', detail: 'query.q: no word to look for' });
  });

  it('rescans in the background with its progress; health counts the index', async () => {
    const before = (await find('tokenizer')).length;
    const started = await post(jig, '/api/search/reindex');
    expect(started.status).toBe(202);
    expect(started.json).toMatchObject({ state: 'running', repo: null, items_done: 0, error: null });
    const s = await eventually(
      async () => {
        const now = (await api('/api/search/reindex')).json;
        return now.state !== 'running' && now;
      },
      { what: 'the rescan to end' },
    );
    expect(s).toMatchObject({
      state: 'done',
      items_done: 4,
      items_total: 4,
      finished_at: expect.any(String),
    });
    expect((await find('tokenizer')).length).toBe(before);
    expect((await find('zebra')).length).toBe(1);
    const health = (await api('/api/health')).json.index;
    expect(health).toEqual({
      last_scan_at: s.finished_at,
      repos_scanned: 1,
      documents: expect.any(Number),
      embeddings: 'off',
    });
    expect(health.documents).toBeGreaterThan(10);
    const unknown = await post(jig, '/api/search/reindex?repo=%2Fnowhere');
    expect(unknown.status).toBe(404);
  });

  it('answers from the CLI: view search and admin reindex', async () => {
    const env = { JIG_HOME: jig.home, NO_COLOR: '' };
    const r = await runJig(['view', 'search', 'zebra'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `document   ${ids.doc}:spec  spec (.jig/docs/spec.md) (item ${ids.doc})\n           # Spec The «zebra» protocol needs a handshake.\n`,
    );
    const json = await runJig(['view', 'search', 'walrus', '--json'], env);
    expect(JSON.parse(json.stdout).results[0].kind).toBe('thread');
    expect((await runJig(['view', 'search', 'x', '--limit', '0'], env)).code).toBe(2);
    const re = await runJig(['admin', 'reindex', '--repo', repo], env);
    expect(re).toMatchObject({ code: 0, stdout: `reindexed 4 item(s) of ${repo}\n` });
  });
});
