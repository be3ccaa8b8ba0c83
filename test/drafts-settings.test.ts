import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftsJig, filePath, type DraftsJig } from './helpers/drafts.js';
import { discard, expectRefused, postOps } from './helpers/drafts-ops.js';
import { makeRepo } from './helpers/git.js';

/*
 * The settings areas through the routes (spec drafts.md, "Areas and keys" rules 2 and 3): each
 * answers without a draft, ops write over the file's own text (comments stay), a layout that cannot
 * take a change is 422 with `op: null`, a publish applies what its area says, and the harnesses and
 * policy drafts race over policy.yaml.
 */

let j: DraftsJig;
beforeAll(async () => {
  j = await draftsJig();
});
afterAll(async () => {
  await j.srv.close();
});

/** Every comment line of a text, trimmed. */
const comments = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => (l.includes('#') ? l.slice(l.indexOf('#')).trim() : ''))
    .filter((c) => c !== '');

describe('settings drafts: reading', () => {
  it('answers each settings area with no draft, the published file and a resolved answer', async () => {
    for (const [area, file] of [
      ['policy', 'policy.yaml'],
      ['intake', 'intake.yaml'],
      ['repos', 'repos.yaml'],
    ] as const) {
      const res = await j.call('GET', `/api/drafts/${area}/${area}`);
      expect(res.status, area).toBe(200);
      expect(res.json).toMatchObject({ area, key: area, draft: false, updated_at: null });
      expect(res.json.files).toEqual({ [file]: j.disk(file) });
      expect(res.json.published).toEqual({ [file]: j.disk(file) });
      expect(res.json.result.problems).toEqual([]);
      expect(res.json.result.changes).toEqual([]);
      expect(res.json.result.warnings).toEqual([]);
      expect(res.json.result.resolved).not.toBeNull();
    }
    const h = await j.call('GET', '/api/drafts/harnesses/harnesses');
    expect(h.status).toBe(200);
    expect(Object.keys(h.json.files).sort()).toEqual(['harnesses.yaml', 'policy.yaml']);
  });

  it('refuses a key the area does not take with 400, and a file not in the draft with 422', async () => {
    const bad = await j.call('GET', '/api/drafts/policy/limits');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ code: 'bad_request', detail: 'limits is not a key of the policy area' });
    const foreign = await j.call('PUT', filePath('policy', 'policy', 'harnesses.yaml'), { text: 'x: 1\n' });
    expect(foreign.status).toBe(422);
    expect(foreign.json.detail).toBe('file: harnesses.yaml is not a file of the policy draft policy');
  });

  it('has fragments only on repos, read-only, by repo path', async () => {
    const none = await j.call('GET', '/api/drafts/policy/policy/fragment?path=budget');
    expect(none.status).toBe(404);
    expect(none.json.detail).toContain('the policy area (it has none)');
  });
});

describe('settings drafts: ops keep comments', () => {
  it('keeps every comment of the seeded policy.yaml through a series of ops', async () => {
    const published = j.disk('policy.yaml')!;
    const res = await postOps(j, 'policy', 'policy', [
      { op: 'set_value', scope: 'limits', key: 'budget.daily_usd', value: 80 },
      { op: 'set_value', scope: 'housekeeping', key: 'max_concurrent', value: 5 },
      { op: 'set_loop', key: 'verification.fix_loop', max_attempts: 2 },
      { op: 'set_value', scope: 'retries', key: 'rate_limit_retries', value: 7 },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.ops).toEqual([
      { op: 'set_value' },
      { op: 'set_value' },
      { op: 'set_loop' },
      { op: 'set_value' },
    ]);
    const text: string = res.json.files['policy.yaml'];
    expect(comments(text)).toEqual(expect.arrayContaining(comments(published)));
    expect(comments(text).length).toBe(comments(published).length);
    const doc = parse(text);
    expect(doc.budget).toEqual({ work_item_usd: 10, daily_usd: 80 });
    expect(doc.max_concurrent).toBe(5);
    expect(doc.rate_limit_retries).toBe(7);
    expect(doc.loops).toEqual({ 'verification.fix_loop': { attempts: 2, wall_clock_s: 3600 } });
    expect(res.json.result.warnings).toEqual([]);
    expect(res.json.result.problems).toEqual([]);
    expect(res.json.result.changes).toEqual(
      expect.arrayContaining([
        { path: 'budget.daily_usd', kind: 'change', summary: '50 -> 80', file: 'policy.yaml' },
        { path: 'max_concurrent', kind: 'change', summary: '3 -> 5', file: 'policy.yaml' },
      ]),
    );
    const list = await j.call('GET', '/api/drafts');
    expect(list.json).toContainEqual({
      area: 'policy',
      key: 'policy',
      files: ['policy.yaml'],
      changes: res.json.result.changes.length,
      problems: 0,
      updated_at: '2026-11-24T10:00:00.000Z',
    });
    await discard(j, 'policy', 'policy');
  });

  it('refuses with op null a change the layout cannot take, saving nothing', async () => {
    const text = 'max_concurrent: &n 3\nauto_escalate_stuck_cap: *n\n';
    const put = await j.call('PUT', filePath('policy', 'policy', 'policy.yaml'), { text });
    expect(put.status).toBe(200);
    const res = await postOps(j, 'policy', 'policy', [
      { op: 'set_value', scope: 'housekeeping', key: 'max_concurrent', value: 4 },
    ]);
    expectRefused(res, null, /^the file's layout cannot take this change: /);
    const after = await j.call('GET', '/api/drafts/policy/policy');
    expect(after.json.files['policy.yaml']).toBe(text);
    await discard(j, 'policy', 'policy');
  });

  it('answers 409 for ops while a file does not parse, with a file-level change row', async () => {
    const put = await j.call('PUT', filePath('intake', 'intake', 'intake.yaml'), { text: 'enabled: [\n' });
    expect(put.status).toBe(200);
    expect(put.json.result.yaml_error).toMatchObject({ file: 'intake.yaml' });
    expect(put.json.result.changes).toEqual([
      {
        path: 'intake.yaml',
        kind: 'change',
        summary: 'intake.yaml does not parse',
        fields: ['enabled', 'interval_s', 'priority_ceiling', 'repos', 'schedules'],
        file: 'intake.yaml',
      },
    ]);
    const ops = await postOps(j, 'intake', 'intake', [{ op: 'set_intake', patch: { enabled: true } }]);
    expect(ops.status).toBe(409);
    expect(ops.json.code).toBe('draft_yaml_error');
    await discard(j, 'intake', 'intake');
  });

  it('refuses an op of another area with its index', async () => {
    const res = await postOps(j, 'intake', 'intake', [
      { op: 'set_intake', patch: { enabled: true } },
      { op: 'set_value', scope: 'housekeeping', key: 'max_concurrent', value: 4 },
    ]);
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ code: 'draft_op_refused', op: 1 });
    expect((await j.call('GET', '/api/drafts/intake/intake')).json.draft).toBe(false);
  });
});

describe('settings drafts: publish', () => {
  it('applies a policy publish to the running server', async () => {
    const ops = await postOps(j, 'policy', 'policy', [
      { op: 'set_value', scope: 'housekeeping', key: 'max_concurrent', value: 6 },
    ]);
    expect(ops.status).toBe(200);
    const pub = await j.call('POST', '/api/drafts/policy/policy/publish');
    expect(pub.status).toBe(200);
    expect(pub.json.published).toEqual(['policy.yaml']);
    expect(pub.json.changes).toEqual([
      { path: 'max_concurrent', kind: 'change', summary: '3 -> 6', file: 'policy.yaml' },
    ]);
    expect(parse(j.disk('policy.yaml')!).max_concurrent).toBe(6);
    expect(j.disk('policy.yaml')).toContain('max_concurrent: 6 # work items running at once');
    const live = await j.call('GET', '/api/policy');
    expect(live.json.max_concurrent).toBe(6);
  });

  it('lets the first of the harnesses and policy drafts publish policy.yaml; the second is 409 until rebased', async () => {
    const h = await postOps(j, 'harnesses', 'harnesses', [
      { op: 'set_allowed_tools', tools: ['Read', 'Edit'] },
    ]);
    expect(h.status).toBe(200);
    const p = await postOps(j, 'policy', 'policy', [
      { op: 'set_value', scope: 'housekeeping', key: 'max_concurrent', value: 4 },
    ]);
    expect(p.status).toBe(200);
    expect((await j.call('POST', '/api/drafts/policy/policy/publish')).status).toBe(200);
    const stale = await j.call('POST', '/api/drafts/harnesses/harnesses/publish');
    expect(stale.status).toBe(409);
    expect(stale.json.code).toBe('draft_stale');
    expect(Object.keys(stale.json.files)).toEqual(['policy.yaml']);
    expect(stale.json.files['policy.yaml'].published).toBe(j.disk('policy.yaml'));
    expect(stale.json.files['policy.yaml'].diff).toContain('+maxima:');
    expect(parse(j.disk('policy.yaml')!).maxima).toBeUndefined();
    const rebased = await j.call('POST', '/api/drafts/harnesses/harnesses/rebase');
    expect(rebased.status).toBe(200);
    const pub = await j.call('POST', '/api/drafts/harnesses/harnesses/publish');
    expect(pub.status).toBe(200);
    expect(pub.json.published).toEqual(['policy.yaml']);
    // Rebase keeps the draft's text: the policy publish's value is what the harnesses draft held.
    expect(parse(j.disk('policy.yaml')!).maxima.allowed_tools).toEqual(['Read', 'Edit']);
  });

  it('publishes an intake schedule live, without a restart', async () => {
    const repo = makeRepo();
    const added = await postOps(j, 'repos', 'repos', [
      { op: 'add_repo', path: repo, fields: { enabled: true } },
    ]);
    expect(added.status).toBe(200);
    expect(added.json.result.problems).toEqual([]);
    expect((await j.call('POST', '/api/drafts/repos/repos/publish')).status).toBe(200);
    const repos = await j.call('GET', '/api/repos');
    expect(JSON.stringify(repos.json)).toContain(JSON.stringify(repo));
    const ops = await postOps(j, 'intake', 'intake', [
      { op: 'add_schedule', cron: '0 9 * * 1', repo, chain: 'default', title: 'Weekly tidy' },
    ]);
    expect(ops.status).toBe(200);
    expect(ops.json.result.problems).toEqual([]);
    expect(ops.json.result.resolved.schedules).toEqual([
      { index: 0, cron: '0 9 * * 1', repo, chain: 'default', title: 'Weekly tidy', description: '' },
    ]);
    expect((await j.call('POST', '/api/drafts/intake/intake/publish')).status).toBe(200);
    const intake = await j.call('GET', '/api/intake');
    expect(JSON.stringify(intake.json)).toContain('Weekly tidy');
  });

  it('refuses to publish a settings draft with problems, naming them', async () => {
    const ops = await postOps(j, 'intake', 'intake', [
      { op: 'add_schedule', cron: 'not a cron', repo: '/nowhere', chain: 'nope', title: 'Bad' },
    ]);
    expect(ops.status).toBe(200);
    const problems = ops.json.result.problems;
    expect(problems.length).toBeGreaterThanOrEqual(3);
    for (const p of problems) expect(p.index).toBe(1);
    const pub = await j.call('POST', '/api/drafts/intake/intake/publish');
    expect(pub.status).toBe(422);
    expect(pub.json.code).toBe('draft_has_problems');
    expect(pub.json.problems).toEqual(problems);
    await discard(j, 'intake', 'intake');
  });
});

describe('settings drafts: the areas through the routes', () => {
  it('harnesses: a never harness a task runs on is a problem naming the chain; comments stay', async () => {
    const published = j.disk('harnesses.yaml')!;
    const res = await postOps(j, 'harnesses', 'harnesses', [
      { op: 'set_harness', id: 'codex', patch: { defaults: { effort: 'high' } } },
      { op: 'set_access', harness: 'claude', state: 'never' },
    ]);
    expect(res.status).toBe(200);
    const text: string = res.json.files['harnesses.yaml'];
    expect(comments(text)).toEqual(comments(published));
    expect(parse(text).harnesses.codex.defaults).toEqual({ effort: 'high' });
    const claude = res.json.result.resolved.harnesses.find((h: { id: string }) => h.id === 'claude');
    expect(claude.state).toBe('never');
    expect(claude.tasks.length).toBeGreaterThan(0);
    const never = res.json.result.problems.filter((p: { message: string }) =>
      p.message.startsWith('harness `claude` is never allowed'),
    );
    expect(never.length).toBeGreaterThan(0);
    for (const p of never) expect(p).toMatchObject({ chain: expect.any(String), path: expect.any(String) });
    expect(res.json.result.changes).toContainEqual({
      path: 'access.claude',
      kind: 'change',
      summary: 'available -> never',
      file: 'policy.yaml',
    });
    expect(res.json.result.impact.tasks).toBe(claude.tasks.length);
    const pub = await j.call('POST', '/api/drafts/harnesses/harnesses/publish');
    expect(pub.status).toBe(422);
    expect(pub.json.code).toBe('draft_has_problems');
    await discard(j, 'harnesses', 'harnesses');
  });

  it('policy: a maximum a chain already exceeds is a problem naming the chain', async () => {
    const res = await postOps(j, 'policy', 'policy', [
      { op: 'set_value', scope: 'limits', key: 'maxima.tasks.time_cap_minutes', value: 1 },
    ]);
    expect(res.status).toBe(200);
    const over = res.json.result.problems.filter((p: { chain?: string }) => p.chain !== undefined);
    expect(over.length).toBeGreaterThan(0);
    for (const p of over) {
      expect(p).toMatchObject({ file: 'policy.yaml', scope: 'limits', level: 'tasks' });
      expect(p.message).toMatch(/^chain `[a-z-]+`: /);
    }
    expect(res.json.result.changes).toEqual([
      { path: 'maxima.tasks.time_cap_minutes', kind: 'add', summary: 'no bound -> 1', file: 'policy.yaml' },
    ]);
    await discard(j, 'policy', 'policy');
  });

  it('repos: a removed repo with an item not ended is a problem; the fragment reads an entry', async () => {
    const repo = makeRepo();
    expect(
      (await postOps(j, 'repos', 'repos', [{ op: 'add_repo', path: repo, fields: { enabled: true } }]))
        .status,
    ).toBe(200);
    expect((await j.call('POST', '/api/drafts/repos/repos/publish')).status).toBe(200);
    const frag = await j.call('GET', `/api/drafts/repos/repos/fragment?path=${encodeURIComponent(repo)}`);
    expect(frag.status).toBe(200);
    expect(parse(frag.json.text)).toMatchObject({
      path: repo,
      default_chain: 'default',
      enabled: true,
      managed: true,
    });
    const item = await j.call('POST', '/api/work-items', { title: 'Stays open', repo });
    expect(item.status).toBe(201);
    const res = await postOps(j, 'repos', 'repos', [{ op: 'remove_repo', path: repo }]);
    expect(res.status).toBe(200);
    expect(res.json.result.impact).toEqual({ running: { [repo]: 1 } });
    expect(res.json.result.problems).toEqual([
      expect.objectContaining({ repo, file: 'repos.yaml', message: expect.stringContaining('1') }),
    ]);
    expect(res.json.result.changes).toEqual([
      expect.objectContaining({ path: repo, kind: 'remove', file: 'repos.yaml' }),
    ]);
    expect((await j.call('POST', '/api/drafts/repos/repos/publish')).status).toBe(422);
    await discard(j, 'repos', 'repos');
  });
});

describe('settings drafts: what PUT /api/policy would refuse', () => {
  it('a policy that would break chains is a problem of the policy draft, naming each chain', async () => {
    const doc = parse(j.disk('policy.yaml')!);
    const text = stringify({ ...doc, maxima: { ...doc.maxima, allowed_harnesses: ['codex'] } });
    const put = await j.call('PUT', filePath('policy', 'policy', 'policy.yaml'), { text });
    expect(put.status).toBe(200);
    const problems = put.json.result.problems;
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) {
      expect(p, JSON.stringify(p)).toMatchObject({ field: 'harness', chain: expect.any(String) });
      expect(p.message).toContain('is not allowed by policy (allowed_harnesses: codex)');
    }
    const saved = await j.call('PUT', '/api/policy', { ...parse(text), active_count: 0 });
    expect(saved.status).toBe(422);
    expect((await j.call('POST', '/api/drafts/policy/policy/publish')).status).toBe(422);
    await discard(j, 'policy', 'policy');
  });

  it('an override harness tasks run on without widening is a problem of the harnesses draft', async () => {
    const res = await postOps(j, 'harnesses', 'harnesses', [
      { op: 'set_access', harness: 'claude', state: 'override' },
    ]);
    expect(res.status).toBe(200);
    const claude = res.json.result.resolved.harnesses.find((h: { id: string }) => h.id === 'claude');
    expect(claude.state).toBe('override');
    expect(res.json.result.problems.length).toBeGreaterThan(0);
    expect(res.json.result.problems[0]).toMatchObject({ chain: expect.any(String), field: 'harness' });
    await discard(j, 'harnesses', 'harnesses');
  });
});
