import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropDraft, saveDraft } from '../src/store/drafts.js';
import { draftsJig, type DraftsJig } from './helpers/drafts.js';
import { cleanupAll } from './helpers/server.js';

/*
 * GET /api/drafts/policy/{key}/preview?chain= on a real server over the seeded config: the scopes
 * of the seeded `default` chain, the policy draft laid over policy.yaml, and every refusal.
 */

let j: DraftsJig;
beforeAll(async () => {
  j = await draftsJig();
});
afterAll(async () => {
  await j.srv.close();
  await cleanupAll();
});

const preview = (chain?: string, key = 'policy') =>
  j.call('GET', `/api/drafts/policy/${key}/preview${chain === undefined ? '' : `?chain=${chain}`}`);

/** Stores a policy draft holding `text` as policy.yaml, as the drafts routes would. */
async function policyDraft(text: string): Promise<void> {
  await saveDraft(j.srv.inst.store.db, {
    area: 'policy',
    key: 'policy',
    files: { 'policy.yaml': text },
    base: { 'policy.yaml': null },
    last_parsed: {},
    changes: 0,
    problems: 0,
    updated_at: '2026-11-24T10:00:00.000Z',
  });
}

const unset = { value: null, source: 'default', maximum: null, exceeds: false };

describe('the seeded default chain', () => {
  it('answers the chain, then every node, step and task (no gate), each with its level', async () => {
    const res = await preview('default');
    expect(res.status).toBe(200);
    expect(res.json.chain).toBe('default');
    expect(
      res.json.scopes.map((s: { path: string; kind: string; level: string }) => [s.path, s.kind, s.level]),
    ).toEqual([
      ['default', 'chain', 'work_item'],
      ['spec', 'node', 'nodes'],
      ['spec.main', 'step', 'steps'],
      ['spec.main.author', 'task', 'tasks'],
      ['plan', 'node', 'nodes'],
      ['plan.main', 'step', 'steps'],
      ['plan.main.author', 'task', 'tasks'],
      ['implementation', 'node', 'nodes'],
      ['implementation.main', 'step', 'steps'],
      ['implementation.main.implement', 'task', 'tasks'],
      ['verification', 'node', 'nodes'],
      ['verification.tests', 'step', 'steps'],
      ['verification.tests.verify', 'task', 'tasks'],
      ['verification.review', 'step', 'steps'],
      ['verification.review.code_review', 'task', 'tasks'],
      ['verification.fix_loop.main', 'step', 'steps'],
      ['verification.fix_loop.main.repair', 'task', 'tasks'],
      ['verification.fix_loop.judge', 'task', 'tasks'],
      ['work_brief', 'node', 'nodes'],
      ['work_brief.main', 'step', 'steps'],
      ['work_brief.main.author', 'task', 'tasks'],
    ]);
    const caps = (path: string) => res.json.scopes.find((s: { path: string }) => s.path === path)?.caps;
    expect(caps('default')).toEqual({
      time_cap_minutes: unset,
      total_time_cap_minutes: unset,
      token_budget: unset,
      budget_usd: unset,
    });
    expect(caps('implementation.main.implement')).toEqual({
      time_cap_minutes: { value: 120, source: 'library:tasks.implementer', maximum: null, exceeds: false },
      total_time_cap_minutes: unset,
      token_budget: unset,
      budget_usd: unset,
    });
  });

  it("lays the policy draft's policy.yaml over the published one", async () => {
    const published = j.disk('policy.yaml')!;
    await policyDraft(`${published}
defaults:
  work_item:
    budget_usd: 6
maxima:
  tasks:
    time_cap_minutes: 100
`);
    try {
      const res = await preview('default');
      expect(res.status).toBe(200);
      const caps = (path: string) => res.json.scopes.find((s: { path: string }) => s.path === path)?.caps;
      expect(caps('default').budget_usd).toEqual({
        value: 6,
        source: 'policy',
        maximum: null,
        exceeds: false,
      });
      expect(caps('implementation.main.implement').time_cap_minutes).toEqual({
        value: 120,
        source: 'library:tasks.implementer',
        maximum: { value: 100, level: 'maxima.tasks' },
        exceeds: true,
      });
      expect(caps('spec.main.author').time_cap_minutes).toEqual({
        value: null,
        source: 'default',
        maximum: { value: 100, level: 'maxima.tasks' },
        exceeds: false,
      });
    } finally {
      await dropDraft(j.srv.inst.store.db, 'policy', 'policy');
    }
  });
});

describe('refusals', () => {
  it('answers 400 for a key other than `policy`', async () => {
    const res = await preview('default', 'other');
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 'bad_request',
      detail: "key: the policy draft's key is `policy`, not `other`",
    });
  });

  it('answers 422 without `chain`', async () => {
    for (const res of [await preview(), await preview('')]) {
      expect(res.status).toBe(422);
      expect(res.json).toEqual({
        code: 'validation_failed',
        detail: 'querystring.chain: required: the id of the chain to preview',
        issues: [{ field: 'querystring.chain', message: 'required: the id of the chain to preview' }],
      });
    }
  });

  it('answers 404 for a chain not in the library', async () => {
    const res = await preview('nowhere');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 'not_found', detail: 'chain `nowhere` not found' });
  });

  it("answers 422 while the policy draft's policy.yaml does not load", async () => {
    await policyDraft('max_concurrent: 0\nloops: {}\n');
    try {
      const res = await preview('default');
      expect(res.status).toBe(422);
      expect(res.json.code).toBe('policy_invalid');
      expect(res.json.detail).toMatch(/^policy\.yaml does not load: policy\.yaml:1:17: max_concurrent: /);
    } finally {
      await dropDraft(j.srv.inst.store.db, 'policy', 'policy');
    }
    expect((await preview('default')).status).toBe(200);
  });

  it('answers 422 for a chain that does not resolve', async () => {
    writeFileSync(
      join(j.home, 'config', 'chains', 'broken.yaml'),
      'nodes:\n  - id: build\n    extends: no_such_node\n',
    );
    const res = await preview('broken');
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('chain_unresolved');
    expect(res.json.detail).toMatch(/^chain broken does not resolve: chains\/broken\.yaml:3:/);
  });

  it('answers 503 while the library does not load', async () => {
    const library = j.disk('library.yaml')!;
    writeFileSync(join(j.home, 'config', 'library.yaml'), 'nodes: [\n');
    try {
      const res = await preview('default');
      expect(res.status).toBe(503);
      expect(res.json.code).toBe('library_not_loaded');
      expect(res.json.detail).toMatch(/^the template library does not load: library\.yaml:/);
    } finally {
      writeFileSync(join(j.home, 'config', 'library.yaml'), library);
    }
  });
});

describe('routing', () => {
  it('leaves the other drafts routes to their own handlers', async () => {
    const fragment = await j.call('GET', '/api/drafts/policy/policy/fragment?path=x');
    expect(fragment.json.code).not.toBe('route_not_found');
    const chains = await j.call('GET', '/api/drafts/chains/default/preview?chain=default');
    expect(chains.status).toBe(404);
    expect(chains.json.code).toBe('route_not_found');
  });
});
