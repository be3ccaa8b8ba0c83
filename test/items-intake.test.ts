import { rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRepoKeys } from './helpers/agents.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, startJig, type JigProcess } from './helpers/server.js';

let jig: JigProcess;
let repo: string;
const post = (path: string, body: unknown) => http(`${jig.url}${path}`, { method: 'POST', body });
const trigger = (body: unknown) => post('/api/triggers', body);

beforeAll(async () => {
  jig = await startJig();
  repo = makeRepo({ 'package.json': '{"scripts":{"test":"node -e 0"}}\n', 'docs/spec.md': '# The spec\n' });
  // Named: on a machine with no agent CLI a new repo would be proposed `manual` (launch-check.test.ts).
  const r = await post('/api/repos', { path: repo, default_chain: 'default' });
  expect(r.status).toBe(201);
});
afterAll(cleanupAll);

describe('POST /api/triggers', () => {
  it('files a paused item with every work item field', async () => {
    const res = await trigger({ title: 'Bump dependencies', repo });
    expect(res.status).toBe(201);
    const item = res.json;
    expect(item).toEqual({
      id: expect.stringMatching(/^[a-z2-9]{8}$/),
      title: 'Bump dependencies',
      description: '',
      status: 'paused',
      display_status: 'paused',
      archived: false,
      chain: 'default',
      repo,
      branch: `jig/${item.id}-bump-dependencies`,
      base_branch: null,
      source: 'trigger',
      attachments: {},
      agent_overrides: {},
      node_overrides: {},
      policy_override: {},
      skip_nodes: [],
      auto_gate: false,
      budget_cap: { cap_usd: 10, key: 'policy', spent_usd: 0 },
      spent_usd: 0,
      spent_tokens: 0,
      current_node: null,
      gate_request: null,
      has_worktree: false,
      stop: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      started_at: null,
      ended_at: null,
      archived_at: null,
    });
    const got = await http(`${jig.url}/api/work-items/${item.id}`);
    expect(got.json).toEqual(item);
    const events = await http(`${jig.url}/api/work-items/${item.id}/events`);
    expect(events.json.events.map((e: { type: string; by: string }) => [e.type, e.by])).toEqual([
      ['work_item_created', 'trigger'],
    ]);
  });

  it('takes the chain, the legacy chain_template, or the repo default, and ignores unknown keys', async () => {
    expect((await trigger({ title: 'A', repo, chain: 'quick-task' })).json.chain).toBe('quick-task');
    expect((await trigger({ title: 'B', repo, chain_template: 'quick-task' })).json.chain).toBe('quick-task');
    expect(
      (await trigger({ title: 'C', repo, chain: 'quick-task', chain_template: 'quick-task' })).status,
    ).toBe(201);
    const withExtra = await trigger({ title: 'D', repo, description: 'from CI', sender: 'ci' });
    expect(withExtra.status).toBe(201);
    expect(withExtra.json).toMatchObject({ chain: 'default', description: 'from CI' });
    const patched = await http(`${jig.url}/api/repos?path=${encodeURIComponent(repo)}`, {
      method: 'PATCH',
      body: { default_chain: 'quick-task' },
    });
    expect(patched.status).toBe(200);
    expect((await trigger({ title: 'E', repo })).json.chain).toBe('quick-task');
    await http(`${jig.url}/api/repos?path=${encodeURIComponent(repo)}`, {
      method: 'PATCH',
      body: { default_chain: null },
    });
    expect((await trigger({ title: 'F', repo })).json.chain).toBe('default');
  });

  const titleCases: [string, unknown, number, string][] = [
    ['empty', '', 422, 'title cannot be empty'],
    ['blank', '   ', 422, 'title cannot be empty'],
    ['two lines', 'a\nb', 422, 'the title is one line'],
    ['a trailing line break', 'title\n', 422, 'the title is one line'],
    ['a carriage return', 'a\rb', 422, 'the title is one line'],
    ['a tab', 'a\tb', 422, 'the title is plain text'],
    ['an escape', 'a\u001b[31mb', 422, 'the title is plain text'],
    ['a lone surrogate', 'a\ud800b', 422, 'the title is plain text'],
    ['501 characters', 'x'.repeat(501), 422, 'the title is at most 500 characters (got 501)'],
  ];
  for (const [name, title, status, detail] of titleCases) {
    it(`refuses a title with ${name}`, async () => {
      const res = await trigger({ title, repo });
      expect(res.status).toBe(status);
      expect(res.json).toEqual({ detail, code: 'invalid_title', field: 'title' });
    });
  }

  it('accepts a title of exactly 500 characters', async () => {
    expect((await trigger({ title: 'é'.repeat(500), repo })).status).toBe(201);
  });

  it('refuses a missing title, a missing repo and wrong types with 422 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ repo }, 'body.title'],
      [{ title: 'x' }, 'body.repo'],
      [{ title: 5, repo }, 'body.title'],
      [{ title: 'x', repo, description: 7 }, 'body.description'],
      [{ title: 'x', repo, chain: ['default'] }, 'body.chain'],
    ];
    for (const [body, field] of cases) {
      const res = await trigger(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.code).toBe('validation_failed');
      expect(res.json.detail.startsWith(`${field}: `), res.json.detail).toBe(true);
    }
    const notObject = await http(`${jig.url}/api/triggers`, {
      method: 'POST',
      raw: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expect(notObject.status).toBe(422);
  });

  it('refuses a repo that is not connected, or gone from disk', async () => {
    const other = makeRepo();
    let res = await trigger({ title: 'x', repo: other });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: `repo ${other} is not connected; connect it with \`jig repo connect\``,
      code: 'repo_not_connected',
    });
    res = await trigger({ title: 'x', repo: '' });
    expect(res.status).toBe(422);
    expect(res.json.detail).toBe('body.repo: name a connected repo');

    const doomed = makeRepo();
    expect((await post('/api/repos', { path: doomed, test_command: '' })).status).toBe(201);
    rmSync(doomed, { recursive: true, force: true });
    res = await trigger({ title: 'x', repo: doomed });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: `repo ${doomed} is connected but no longer exists on disk`,
      code: 'repo_gone',
    });
  });

  it('refuses a chain that names nothing, and chain and chain_template that disagree (naming both)', async () => {
    let res = await trigger({ title: 'x', repo, chain: 'nope' });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: 'chain nope names no chain in the library (chains: default, manual, merge-request, quick-task)',
      code: 'chain_unknown',
      chains: ['default', 'manual', 'merge-request', 'quick-task'],
    });
    res = await trigger({ title: 'x', repo, chain: 'default', chain_template: 'quick-task' });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: 'chain and chain_template name different chains (default and quick-task); send one',
      code: 'chain_conflict',
    });
  });

  it('answers 502 "intake failed: …" when filing fails after the checks passed', async () => {
    const db = new Database(join(jig.home, 'run', 'jig.db'));
    db.exec(
      "CREATE TRIGGER refuse_insert BEFORE INSERT ON work_items BEGIN SELECT RAISE(ABORT, 'disk says no'); END;",
    );
    try {
      const res = await trigger({ title: 'x', repo });
      expect(res.status).toBe(502);
      expect(res.json.code).toBe('intake_failed');
      expect(res.json.detail).toBe('intake failed: disk says no');
    } finally {
      db.exec('DROP TRIGGER refuse_insert');
      db.close();
    }
    expect((await trigger({ title: 'after', repo })).status).toBe(201);
  });
});

describe('refusals that come from the configuration', () => {
  it('answers 422 while repos.yaml does not load', async () => {
    const file = join(jig.home, 'config', 'repos.yaml');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, `${good}\n  - path: [unclosed\n`);
    try {
      const res = await trigger({ title: 'x', repo });
      expect(res.status).toBe(422);
      expect(res.json.code).toBe('repos_file_invalid');
      expect(res.json.detail).toMatch(/^repos\.yaml does not load: repos\.yaml:\d+:\d+: /);
    } finally {
      writeFileSync(file, good);
    }
    writeFileSync(file, good.replace('enabled: true', 'enabled: true\n    policy: {budget_usd: "lots"}'));
    try {
      const res = await trigger({ title: 'x', repo });
      expect(res.status).toBe(422);
      expect(res.json.code).toBe('repos_file_invalid');
    } finally {
      writeFileSync(file, good);
    }
  });

  it("answers 422 while the repo's steering names something the library does not define", async () => {
    const path = `/api/repos?path=${encodeURIComponent(repo)}`;
    expect(
      (await http(`${jig.url}${path}`, { method: 'PATCH', body: { steering: ['project-standards'] } }))
        .status,
    ).toBe(200);
    expect((await trigger({ title: 'steered', repo })).status).toBe(201);
    // The API refuses the name before saving it (issue 40); a hand edit of repos.yaml still can.
    const patched = await http(`${jig.url}${path}`, {
      method: 'PATCH',
      body: { steering: ['project-standards', 'house-style'] },
    });
    expect([patched.status, patched.json.code]).toEqual([422, 'repo_steering_invalid']);
    setRepoKeys(jig.home, repo, { steering: ['project-standards', 'house-style'] });
    const res = await trigger({ title: 'x', repo });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: `repo ${repo} names steering the library does not define: house-style`,
      code: 'repo_steering_invalid',
    });
    await http(`${jig.url}${path}`, { method: 'PATCH', body: { steering: null } });
  });

  it('answers 503 while policy.yaml, the library or a chain is invalid, and files again once fixed', async () => {
    for (const file of ['policy.yaml', 'library.yaml', 'chains/quick-task.yaml']) {
      const path = join(jig.home, 'config', file);
      const good = readFileSync(path, 'utf8');
      writeFileSync(path, 'nodes: [\n');
      try {
        expect((await post('/api/apply/reload', {})).status).toBe(422);
        const res = await trigger({ title: 'x', repo });
        expect(res.status, file).toBe(503);
        expect(res.json.code).toBe('new_work_refused');
        expect(res.json.detail).toContain(file);
        // Reads still work while degraded.
        expect((await http(`${jig.url}/api/work-items`)).status).toBe(200);
      } finally {
        writeFileSync(path, good);
      }
      expect((await post('/api/apply/reload', {})).status).toBe(200);
      expect((await trigger({ title: 'x', repo })).status).toBe(201);
    }
  });
});

describe('POST /api/work-items', () => {
  it('files a paused item with attachments, overrides and its own budget', async () => {
    const res = await post('/api/work-items', {
      title: 'Add a flag',
      repo,
      description: 'details',
      attachments: { spec: { path: 'docs/spec.md' }, plan: { text: '1. do it\n' } },
      agent_overrides: { model: 'claude-opus-4' },
      node_overrides: { implementation: { model: 'sonnet' } },
      budget_usd: 4,
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      status: 'paused',
      source: 'human',
      agent_overrides: { model: 'claude-opus-4' },
      node_overrides: { implementation: { model: 'sonnet' } },
      budget_cap: { cap_usd: 4, key: 'item', spent_usd: 0 },
      attachments: {
        spec: { kind: 'spec', source: 'path', path: 'docs/spec.md', bytes: 11 },
        plan: { kind: 'plan', source: 'text', path: null, bytes: 9 },
      },
    });
    const spec = await http(`${jig.url}/api/work-items/${res.json.id}/attachments/spec`);
    expect(spec.status).toBe(200);
    expect(spec.text).toBe('# The spec\n');
    expect(spec.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const none = await http(`${jig.url}/api/work-items/${res.json.id}/attachments/nope`);
    expect(none.status).toBe(422);
  });

  it('refuses an attachment that is missing, outside the repo, or not text', async () => {
    const cases: [unknown, string][] = [
      [{ path: 'docs/missing.md' }, 'spec attachment: docs/missing.md does not exist in the repository'],
      [
        { path: '../../etc/passwd' },
        'spec attachment: path ../../etc/passwd must be relative to the repository and must not contain ..',
      ],
      [
        { path: '/etc/passwd' },
        'spec attachment: path /etc/passwd must be relative to the repository and must not contain ..',
      ],
      [{ path: 'docs' }, 'spec attachment: docs is not a file'],
    ];
    for (const [spec, detail] of cases) {
      const res = await post('/api/work-items', { title: 'x', repo, attachments: { spec } });
      expect(res.status).toBe(422);
      expect(res.json).toEqual({ detail, code: 'attachment_unreadable' });
    }
  });

  it('refuses a model override that is not a model id', async () => {
    const res = await post('/api/work-items', { title: 'x', repo, agent_overrides: { model: 'rm -rf /' } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: 'agent_overrides.model: "rm -rf /" is not a model id',
      code: 'invalid_model_override',
    });
  });

  it('refuses unknown keys on the board route', async () => {
    const res = await post('/api/work-items', { title: 'x', repo, colour: 'red' });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('validation_failed');
    expect(res.json.detail).toContain('colour');
  });

  it('a misspelt key gets the same "did you mean" as the YAML loader (issue 28)', async () => {
    const res = await post('/api/work-items', { title: 'x', repo, chian: 'quick-task' });
    expect([res.status, res.json]).toEqual([
      422,
      {
        code: 'validation_failed',
        detail: 'body: Unrecognized key: "chian"; did you mean `chain`?',
        issues: [{ field: 'body', message: 'Unrecognized key: "chian"; did you mean `chain`?' }],
      },
    ]);
    const two = await post('/api/work-items', { title: 'x', repo, chian: 'a', descripton: 'b', zzzzzz: 1 });
    expect(two.json.detail).toBe(
      'body: Unrecognized keys: "chian", "descripton", "zzzzzz"; did you mean `chain` for "chian"?; did you mean `description` for "descripton"?',
    );
  });

  it('dry_run=1 runs every check and files nothing', async () => {
    const before = (await http(`${jig.url}/api/work-items?limit=1`)).json.total;
    const res = await post('/api/work-items?dry_run=1', { title: 'Try', repo, chain: 'default' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      dry_run: true,
      would_file: {
        title: 'Try',
        repo,
        chain: 'default',
        status: 'paused',
        nodes: [
          { id: 'spec', kind: 'exec', skipped: null },
          { id: 'spec_approval', kind: 'gate', skipped: null },
          { id: 'plan', kind: 'exec', skipped: null },
          { id: 'plan_approval', kind: 'gate', skipped: null },
          { id: 'implementation', kind: 'exec', skipped: null },
          { id: 'verification', kind: 'exec', skipped: null },
          { id: 'work_brief', kind: 'exec', skipped: null },
          { id: 'local_review', kind: 'gate', skipped: null },
        ],
        gates: ['spec_approval', 'plan_approval', 'local_review'],
        budget_cap: { cap_usd: 10, key: 'policy', spent_usd: 0 },
        // What this machine has installed decides it: launch-check.test.ts pins it.
        cannot_launch: expect.any(Array),
      },
    });
    // An attached spec passes the node that writes it and the gate that shows it; skip_nodes its own.
    const skipping = await post('/api/work-items?dry_run=1', {
      title: 'Try',
      repo,
      chain: 'default',
      attachments: { spec: { text: '# Spec\n' } },
      skip_nodes: ['work_brief'],
    });
    expect(skipping.status, skipping.text).toBe(200);
    expect(
      skipping.json.would_file.nodes
        .filter((n: any) => n.skipped !== null)
        .map((n: any) => [n.id, n.skipped]),
    ).toEqual([
      ['spec', 'the spec was attached when filed'],
      ['spec_approval', 'the spec was attached by a person'],
      ['work_brief', 'filed with skip_nodes'],
    ]);
    const bad = await post('/api/work-items?dry_run=1', { title: '', repo });
    expect(bad.status).toBe(422);
    expect((await http(`${jig.url}/api/work-items?limit=1`)).json.total).toBe(before);
  });

  it('start: true files the item and starts it at once', async () => {
    const res = await post('/api/work-items', { title: 'Go', repo, chain: 'quick-task', start: true });
    expect(res.status).toBe(201);
    expect(['running', 'queued', 'stopped']).toContain(res.json.status);
    const events = (await http(`${jig.url}/api/work-items/${res.json.id}/events`)).json.events;
    expect(events.slice(0, 2).map((e: { type: string }) => e.type)).toEqual([
      'work_item_created',
      'work_item_started',
    ]);
  });
});
