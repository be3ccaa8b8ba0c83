import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { fileItem, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { cleanupAll, http, runJig, type JigProcess } from './helpers/server.js';

/*
 * An item's documents: the spec a task wrote (its node, path and digest), an approve pinned to the
 * digest a person read (a changed document is 409), attachments listed, and editors found and
 * started on the server's machine (here a script standing for the editor, via JIG_EDITOR).
 */
const CHAIN = `
nodes:
  - id: write
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: spec
        prompt: Write the spec document.
  - id: review
    kind: gate
    artifact: spec
    reject_to: write
`;

let jig: JigProcess;
let repo: string;
let home: string;
let dir: string;
let opened: string;
const sha = /^[0-9a-f]{64}$/;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jig-docs-'));
  const script = join(dir, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({
      rules: [{ match: 'Write the spec', mode: 'done', artifact: '# Spec v1\n' }],
      default: { mode: 'done' },
    }),
  );
  opened = join(dir, 'opened.txt');
  const editor = join(dir, 'my-editor');
  writeFileSync(editor, `#!/bin/sh\necho "$1" >> ${opened}\n`);
  chmodSync(editor, 0o755);
  ({ jig, repo, home } = await agentSetup(
    { documented: CHAIN },
    { env: { FAKE_AGENT_SCRIPT: script }, serverEnv: { JIG_EDITOR: editor, VISUAL: '', EDITOR: '' } },
  ));
});
afterAll(cleanupAll);

const openedPaths = (count: number): Promise<string[]> =>
  eventually(
    () => {
      const lines = existsSync(opened) ? readFileSync(opened, 'utf8').trim().split('\n') : [];
      return lines.length >= count && lines;
    },
    { what: `${count} paths opened in the editor` },
  );

describe('documents', () => {
  it('lists the spec a task wrote with its digest; approve pins the digest read; a changed spec is 409', async () => {
    const item = await fileItem(jig, repo, 'documented');
    const id = item.id;
    await until(jig, id, (i) => i.status === 'stopped' && i.current_node === 'review');
    const docs = await http(`${jig.url}/api/work-items/${id}/documents`);
    expect(docs.status).toBe(200);
    expect(docs.json.documents).toEqual([
      {
        id: `${id}.spec`,
        kind: 'spec',
        source: 'task',
        node: 'write',
        path: expect.stringMatching(/\.md$/),
        digest: expect.stringMatching(sha),
        bytes: 10,
        gate: 'review',
        problem: null,
      },
    ]);
    const read = await http(`${jig.url}/api/work-items/${id}/artifacts/spec`);
    expect(read.json).toMatchObject({ kind: 'spec', node: 'write', text: '# Spec v1\n' });
    expect(read.json.digest).toBe(docs.json.documents[0].digest);
    const pending = await http(`${jig.url}/api/work-items/${id}/artifact`);
    expect(pending.json).toMatchObject({
      gate: 'review',
      kind: 'spec',
      text: '# Spec v1\n',
      digest: read.json.digest,
    });
    const none = await http(`${jig.url}/api/work-items/${id}/artifacts/plan`);
    expect(none.status).toBe(404);

    // Someone edits the spec after the person read it: approving what they read is refused.
    writeFileSync(read.json.path, '# Spec v2\n');
    const stale = await post(jig, `/api/work-items/${id}/gates/review/approve`, { digest: read.json.digest });
    expect(stale.status).toBe(409);
    const now = (await http(`${jig.url}/api/work-items/${id}/artifact`)).json.digest;
    expect(stale.json).toEqual({
      code: 'document_changed',
      detail: `the spec document of gate review changed since you read it (now ${now}); read it again, then approve`,
    });
    expect((await http(`${jig.url}/api/work-items/${id}`)).json.status).toBe('stopped');
    const viaCli = await runJig(['item', 'approve', id, '--digest', read.json.digest], { JIG_HOME: home });
    expect(viaCli.code).toBe(2);
    expect(viaCli.stderr).toContain('the spec document of gate review changed since you read it');
    const listed = await runJig(['view', 'docs', id], { JIG_HOME: home });
    expect(listed.stdout).toBe(
      `spec\ttask of write\t${docs.json.documents[0].path}\t10 bytes\tgate review waits on it\n`,
    );
    expect((await runJig(['view', 'doc', id, 'spec'], { JIG_HOME: home })).stdout).toBe('# Spec v2\n');
    const malformed = await post(jig, `/api/work-items/${id}/gates/review/approve`, { digest: 'abc' });
    expect(malformed.status).toBe(422);
    expect(malformed.json.detail).toContain('digest');
    const ok = await post(jig, `/api/work-items/${id}/gates/review/approve`, { digest: now });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.status).not.toBe('stopped');
  });

  it('lists attachments of an item not started, with the digest of their text', async () => {
    const filed = await post(jig, '/api/work-items', {
      title: 'Attached',
      repo,
      chain: 'documented',
      attachments: { plan: { text: '# The plan\n' } },
    });
    const docs = await http(`${jig.url}/api/work-items/${filed.json.id}/documents`);
    expect(docs.json.documents).toEqual([
      {
        id: `${filed.json.id}.plan`,
        kind: 'plan',
        source: 'attachment',
        node: null,
        path: null,
        digest: filed.json.attachments.plan.sha256,
        bytes: 11,
        gate: null,
        problem: null,
      },
    ]);
  });
});

describe('editors', () => {
  it("lists the server's editor and opens documents and the worktree in it", async () => {
    const eds = await http(`${jig.url}/api/editors`);
    expect(eds.status).toBe(200);
    expect(eds.json.default).toBe('env');
    expect(eds.json.editors[0]).toEqual({
      id: 'env',
      name: 'my-editor (your editor)',
      command: join(dir, 'my-editor'),
    });

    const item = await fileItem(jig, repo, 'documented');
    await until(jig, item.id, (i) => i.status === 'stopped' && i.current_node === 'review');
    const spec = (await http(`${jig.url}/api/work-items/${item.id}/artifacts/spec`)).json.path;
    const a = await post(jig, `/api/work-items/${item.id}/artifact/open`, {});
    expect(a.json).toEqual({ editor: 'env', path: spec });
    const b = await post(jig, `/api/work-items/${item.id}/artifacts/spec/open`, { editor: 'env' });
    expect(b.status).toBe(200);
    const c = await post(jig, `/api/documents/${item.id}.spec/open`);
    expect(c.status).toBe(200);
    const w = await post(jig, `/api/work-items/${item.id}/open-worktree`, {});
    expect(w.status).toBe(200);
    expect(w.json.path).toMatch(/worktrees/);
    expect(await openedPaths(4)).toEqual([spec, spec, spec, w.json.path]);

    const bad = await post(jig, `/api/work-items/${item.id}/open-worktree`, { editor: 'emacs' });
    expect(bad.status).toBe(422);
    expect(bad.json.detail).toBe('body.editor: emacs is not an editor on this machine (found: env)');
    const noDoc = await post(jig, `/api/documents/${item.id}.plan/open`, {});
    expect(noDoc.status).toBe(404);
  });
});
