import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentSetup, jsonLines } from './helpers/agents.js';
import { events, until } from './helpers/engine.js';
import { cleanupAll, http } from './helpers/server.js';

afterAll(cleanupAll);

/*
 * What an item is filed with decides nodes before they run: `skip_nodes`, and an attached spec or
 * plan that stands for the document a node would write (and the gate that would show it).
 */
const DOCS = `
description: spec, its gate, a plan that reads it, then a build
nodes:
  - id: spec
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: spec
        prompt: Write the spec.
  - id: spec_approval
    kind: gate
    artifact: spec
    reject_to: spec
  - id: plan
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: plan
        prompt: Write the plan from the approved spec.
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: claude
        prompt: Build it.
  - id: pinned
    kind: exec
    skippable: false
    tasks:
      - id: check
        kind: subprocess
        command: "true"
`;

const ended = (i: any) => i.status !== 'running' && i.status !== 'queued';

async function setup() {
  const logs = mkdtempSync(join(tmpdir(), 'jig-skips-'));
  const prompts = join(logs, 'prompt.jsonl');
  const { jig, repo, home } = await agentSetup(
    { docs: DOCS },
    { env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_PROMPT_LOG: prompts } },
  );
  return { jig, repo, home, prompts };
}

describe('nodes decided at filing', () => {
  it('an attached spec skips the spec node and its gate; the plan agent is told where the spec is', async () => {
    const { jig, repo, home, prompts } = await setup();
    const spec = '# The spec\n\nWritten by a person.\n';
    const r = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'With a spec', repo, chain: 'docs', start: true, attachments: { spec: { text: spec } } },
    });
    expect(r.status, r.text).toBe(201);
    const done = await until(jig, r.json.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const skipped = (await events(jig, done.id)).filter((e) => e.type === 'node_skipped');
    expect(skipped.map((e) => [e.node, e.by, e.payload])).toEqual([
      ['spec', 'jig', { node: 'spec', note: 'the spec was attached when filed' }],
      ['spec_approval', 'jig', { node: 'spec_approval', note: 'the spec was attached by a person' }],
    ]);
    const worktree = join(home, 'run', 'worktrees', done.id);
    expect(readFileSync(join(worktree, '.jig', 'docs', 'spec.md'), 'utf8')).toBe(spec);
    const runs = jsonLines(prompts);
    expect(runs).toHaveLength(2); // plan and build: the spec author never ran
    expect(runs[0].prompt).toContain(
      'The documents of this work item so far (paths in this worktree):\n- spec: .jig/docs/spec.md\n\nYour task: Write the plan from the approved spec.',
    );
    expect(runs[1].prompt).toContain('- plan: .jig/docs/plan.md\n- spec: .jig/docs/spec.md');
  });

  it('skip_nodes passes the named nodes (recorded on the item), and names what it refuses', async () => {
    const { jig, repo, prompts } = await setup();
    const r = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Skip two', repo, chain: 'docs', start: true, skip_nodes: ['spec_approval', 'plan'] },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.json.skip_nodes).toEqual(['spec_approval', 'plan']);
    const done = await until(jig, r.json.id, ended);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    const skipped = (await events(jig, done.id)).filter((e) => e.type === 'node_skipped');
    expect(skipped.map((e) => e.payload)).toEqual([
      { node: 'spec_approval', note: 'filed with skip_nodes' },
      { node: 'plan', note: 'filed with skip_nodes' },
    ]);
    expect(jsonLines(prompts).map((p) => p.prompt.match(/Your task: (.*)/)?.[1])).toEqual([
      'Write the spec.',
      'Build it.',
    ]);

    const refused = async (skip_nodes: unknown, message: string) => {
      const bad = await http(`${jig.url}/api/work-items`, {
        method: 'POST',
        body: { title: 'Refused', repo, chain: 'docs', skip_nodes },
      });
      expect(bad.status, bad.text).toBe(422);
      expect(bad.json.detail).toContain(message);
    };
    await refused(
      ['nope'],
      'body.skip_nodes: nope is not a node of chain docs (its nodes: spec, spec_approval, plan, build, pinned)',
    );
    await refused(['pinned'], 'body.skip_nodes: node pinned of chain docs is not skippable');
    await refused(['plan', 'plan'], 'names a node twice');
    const list = await http(`${jig.url}/api/work-items?archived=all`);
    expect(list.json.items.map((i: any) => i.title)).not.toContain('Refused');
  });

  it('PATCH skip_nodes before the start (skip_nodes_changed), checked again on a chain change; 409 after', async () => {
    const { jig, repo } = await setup();
    const filed = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Later', repo, chain: 'docs' },
    });
    expect(filed.status).toBe(201);
    const id = filed.json.id;
    const patch = (body: unknown) => http(`${jig.url}/api/work-items/${id}`, { method: 'PATCH', body });
    const set = await patch({ skip_nodes: ['plan'] });
    expect(set.status, set.text).toBe(200);
    expect(set.json.skip_nodes).toEqual(['plan']);
    const changed = (await events(jig, id)).find((e) => e.type === 'skip_nodes_changed');
    expect(changed.payload).toEqual({ from: [], to: ['plan'] });
    const other = await patch({ chain: 'quick-task' });
    expect(other.status).toBe(422);
    expect(other.json.detail).toContain('body.skip_nodes: plan is not a node of chain quick-task');
    const started = await http(`${jig.url}/api/work-items/${id}/resume`, { method: 'POST', body: {} });
    expect(started.status, started.text).toBe(200);
    await until(jig, id, ended);
    const late = await patch({ skip_nodes: [] });
    expect(late.status).toBe(409);
  });
});
