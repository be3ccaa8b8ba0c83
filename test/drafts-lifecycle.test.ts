import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sha256Text } from '../src/runtime/config/config-dir.js';
import { draftsJig, filePath, type DraftsJig } from './helpers/drafts.js';
import { cleanupAll } from './helpers/server.js';

let j: DraftsJig;
const QUICK = 'chains/quick-task.yaml';
let quickText: string;

/** quick-task with another description: a change, comments kept. */
const described = (d: string): string => quickText.replace(/^description: .*$/m, `description: ${d}`);

beforeAll(async () => {
  j = await draftsJig();
  quickText = j.disk(QUICK)!;
});
afterAll(async () => {
  await j.srv.close();
  await cleanupAll();
});

describe('areas and keys', () => {
  it('refuses an unknown area with 404, a key the area does not take with 400', async () => {
    const unknown = await j.call('GET', '/api/drafts/widgets/x');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ code: 'not_found', detail: 'draft area widgets not found' });
    const badKey = await j.call('GET', '/api/drafts/chains/Not-An-Id');
    expect(badKey.status).toBe(400);
    expect(badKey.json).toEqual({ code: 'bad_request', detail: 'Not-An-Id is not a key of the chains area' });
    const library = await j.call('POST', '/api/drafts/library/chains/undo');
    expect(library.status).toBe(400);
  });

  it('answers 404 for a chain with neither file nor draft', async () => {
    const res = await j.call('GET', '/api/drafts/chains/nothing-here');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 'not_found', detail: 'chain nothing-here or a draft of it not found' });
  });
});

describe('reading with no draft', () => {
  it('answers the published file, its digest and a result with no change', async () => {
    const res = await j.call('GET', '/api/drafts/chains/quick-task');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      area: 'chains',
      key: 'quick-task',
      draft: false,
      files: { [QUICK]: quickText },
      base: { [QUICK]: sha256Text(quickText) },
      published: { [QUICK]: quickText },
      updated_at: null,
    });
    const r = res.json.result;
    expect(r.problems).toEqual([]);
    expect(r.changes).toEqual([]);
    expect(r.yaml_error).toBeNull();
    expect(r.warnings).toEqual([]);
    expect(r.impact).toEqual({ running: 0, repos: [] });
    expect(r.resolved.nodes.map((n: { id: string }) => n.id)).toEqual(['implementation', 'verify']);
    expect(r.model[QUICK]).toEqual(parse(quickText));
    expect(Object.keys(r.choices).sort()).toEqual(['grants', 'inputs', 'ref', 'target']);
    expect(r.policy_values).toEqual({
      auto_escalate_delay_s: expect.any(Number),
      auto_review_attempts: expect.any(Number),
    });
  });

  it('reads a fragment of the published file; 400 without a path, 404 with nothing there', async () => {
    const ok = await j.call('GET', '/api/drafts/chains/quick-task/fragment?path=verify.main.verify');
    expect(ok.status).toBe(200);
    expect(ok.json.path).toBe('verify.main.verify');
    expect(parse(ok.json.text)).toEqual({ id: 'verify', extends: 'verify_changed_scopes' });
    const none = await j.call('GET', '/api/drafts/chains/quick-task/fragment');
    expect(none.status).toBe(400);
    const nothing = await j.call('GET', '/api/drafts/chains/quick-task/fragment?path=verify.nope');
    expect(nothing.status).toBe(404);
  });
});

describe('PUT a file, undo, rebase, discard', () => {
  it('stores text as typed, lists the draft, coalesces PUTs under 4 s into one undo step', async () => {
    const put = (text: string) => j.call('PUT', filePath('chains', 'quick-task', QUICK), { text });
    const first = await put(described('One.'));
    expect(first.status).toBe(200);
    expect(first.json.draft).toBe(true);
    expect(first.json.files[QUICK]).toBe(described('One.'));
    expect(first.json.base).toEqual({ [QUICK]: sha256Text(quickText) });
    expect(first.json.updated_at).toBe('2026-11-24T10:00:00.000Z');
    expect(first.json.result.changes).toEqual([
      { path: '', kind: 'change', summary: 'changed description', fields: ['description'] },
    ]);
    // Comments stay: the text is stored as typed.
    expect(first.json.files[QUICK]).toContain('# library task');

    await j.clock.advance(3000);
    await put(described('Two.'));
    await j.clock.advance(5000);
    const third = await put(described('Three.'));
    expect(third.json.files[QUICK]).toBe(described('Three.'));

    const list = await j.call('GET', '/api/drafts');
    expect(list.json).toEqual([
      {
        area: 'chains',
        key: 'quick-task',
        files: [QUICK],
        changes: 1,
        problems: 0,
        updated_at: '2026-11-24T10:00:08.000Z',
      },
    ]);

    // Two steps: Three → Two (the 3 s pair was one step) → no draft.
    const back = await j.call('POST', '/api/drafts/chains/quick-task/undo');
    expect(back.status).toBe(200);
    expect(back.json.files[QUICK]).toBe(described('Two.'));
    const gone = await j.call('POST', '/api/drafts/chains/quick-task/undo');
    expect(gone.status).toBe(200);
    expect(gone.json.draft).toBe(false);
    expect(gone.json.files[QUICK]).toBe(quickText);
    const none = await j.call('POST', '/api/drafts/chains/quick-task/undo');
    expect(none.status).toBe(409);
    expect(none.json).toEqual({
      code: 'draft_nothing_to_undo',
      detail: 'nothing to undo in the chains draft quick-task',
    });
    expect((await j.call('GET', '/api/drafts')).json).toEqual([]);
  });

  it('keeps text that does not parse, with its yaml_error; the model keeps the last state that parsed', async () => {
    const url = filePath('chains', 'quick-task', QUICK);
    await j.clock.advance(10_000);
    await j.call('PUT', url, { text: described('Parsed.') });
    await j.clock.advance(10_000);
    const broken = `${described('Parsed.')}\nnodes: [oops\n`;
    const res = await j.call('PUT', url, { text: broken });
    expect(res.status).toBe(200);
    expect(res.json.files[QUICK]).toBe(broken);
    expect(res.json.result.yaml_error).toMatchObject({ file: QUICK, line: expect.any(Number) });
    expect(res.json.result.model[QUICK].description).toBe('Parsed.');
    const ops = await j.call('POST', '/api/drafts/chains/quick-task/ops', {
      ops: [{ op: 'set_field', path: '', field: 'description', value: 'x' }],
    });
    expect(ops.status).toBe(409);
    expect(ops.json.code).toBe('draft_yaml_error');
    expect(ops.json.detail).toMatch(/^fix the YAML first: chains\/quick-task\.yaml line \d+: /);
    const publish = await j.call('POST', '/api/drafts/chains/quick-task/publish');
    expect(publish.status).toBe(422);
    expect(publish.json.code).toBe('draft_has_problems');
    expect(publish.json.problems.length).toBeGreaterThan(0);
    expect(j.disk(QUICK)).toBe(quickText);
    const del = await j.call('DELETE', '/api/drafts/chains/quick-task');
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const again = await j.call('DELETE', '/api/drafts/chains/quick-task');
    expect(again.status).toBe(404);
    expect((await j.call('POST', '/api/drafts/chains/quick-task/undo')).status).toBe(409);
  });

  it('drops the draft when a PUT brings the file back to what the published one parses to', async () => {
    const url = filePath('chains', 'quick-task', QUICK);
    await j.call('PUT', url, { text: described('Changed.') });
    const back = await j.call('PUT', url, { text: quickText.replace(/^#.*\n/gm, '') });
    expect(back.json.draft).toBe(false);
    expect((await j.call('GET', '/api/drafts')).json).toEqual([]);
  });

  it('refuses a file that is not one of the key’s files with 422', async () => {
    const res = await j.call('PUT', filePath('chains', 'quick-task', 'chains/default.yaml'), {
      text: 'x: 1\n',
    });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      code: 'validation_failed',
      detail: 'file: chains/default.yaml is not a file of the chains draft quick-task',
    });
  });

  it('keeps at most 80 undo steps', async () => {
    const url = filePath('chains', 'quick-task', QUICK);
    for (let i = 0; i < 85; i++) {
      await j.clock.advance(5000);
      expect((await j.call('PUT', url, { text: described(`Step ${i}.`) })).status).toBe(200);
    }
    let undone = 0;
    for (;;) {
      const res = await j.call('POST', '/api/drafts/chains/quick-task/undo');
      if (res.status === 409) break;
      expect(res.status).toBe(200);
      undone++;
    }
    expect(undone).toBe(80);
    // The oldest steps are gone: undoing stops at step 4's text, with the draft still open.
    const left = await j.call('GET', '/api/drafts/chains/quick-task');
    expect(left.json.files[QUICK]).toBe(described('Step 4.'));
    expect((await j.call('DELETE', '/api/drafts/chains/quick-task')).status).toBe(204);
  });

  it('rebases onto the disk: 404 with no draft; the text is kept and no undo step pushed', async () => {
    expect((await j.call('POST', '/api/drafts/chains/quick-task/rebase')).status).toBe(404);
    await j.clock.advance(5000);
    await j.call('PUT', filePath('chains', 'quick-task', QUICK), { text: described('Mine.') });
    const onDisk = described('Someone else.');
    writeFileSync(join(j.home, 'config', QUICK), onDisk);
    const rebased = await j.call('POST', '/api/drafts/chains/quick-task/rebase');
    expect(rebased.status).toBe(200);
    expect(rebased.json.base).toEqual({ [QUICK]: sha256Text(onDisk) });
    expect(rebased.json.files[QUICK]).toBe(described('Mine.'));
    expect(rebased.json.published[QUICK]).toBe(onDisk);
    // One undo step (the PUT), not two.
    expect((await j.call('POST', '/api/drafts/chains/quick-task/undo')).json.draft).toBe(false);
    writeFileSync(join(j.home, 'config', QUICK), quickText);
  });
});

describe('publish', () => {
  const url = filePath('chains', 'quick-task', QUICK);

  it('answers 404 with no draft', async () => {
    const res = await j.call('POST', '/api/drafts/chains/quick-task/publish');
    expect(res.status).toBe(404);
  });

  it('refuses with 409 and a diff when the file changed on disk since it joined; nothing written', async () => {
    await j.clock.advance(5000);
    await j.call('PUT', url, { text: described('Drafted.') });
    const handEdit = described('Hand edit.');
    writeFileSync(join(j.home, 'config', QUICK), handEdit);
    const res = await j.call('POST', '/api/drafts/chains/quick-task/publish');
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('draft_stale');
    expect(res.json.detail).toBe(`published since this draft began: ${QUICK}`);
    expect(res.json.files[QUICK].published).toBe(handEdit);
    expect(res.json.files[QUICK].draft).toBe(described('Drafted.'));
    expect(res.json.files[QUICK].diff).toContain('-description: Hand edit.');
    expect(res.json.files[QUICK].diff).toContain('+description: Drafted.');
    expect(j.disk(QUICK)).toBe(handEdit);
    // Rebase takes the disk's text as the base; the publish then goes through.
    await j.call('POST', '/api/drafts/chains/quick-task/rebase');
  });

  it('writes the file, reloads and drops the draft; the running chain is the new one', async () => {
    const res = await j.call('POST', '/api/drafts/chains/quick-task/publish');
    expect(res.status).toBe(200);
    expect(res.json.published).toEqual([QUICK]);
    expect(res.json.changes).toEqual([
      { path: '', kind: 'change', summary: 'changed description', fields: ['description'] },
    ]);
    expect(res.json.result.changes).toEqual([]);
    expect(j.disk(QUICK)).toBe(described('Drafted.'));
    const chains = await j.call('GET', '/api/templates/chains');
    const quick = chains.json.chains.find((c: { id: string }) => c.id === 'quick-task');
    expect(quick).toMatchObject({ description: 'Drafted.', running: true, resolves: true });
    const applied = await j.call('GET', '/api/apply');
    expect(applied.json.reload_needed).toBe(false);
    expect((await j.call('GET', '/api/drafts')).json).toEqual([]);
  });

  it('answers 500 when applying fails after writing, keeps the draft, and a retry answers 200', async () => {
    await j.clock.advance(5000);
    await j.call('PUT', url, { text: described('Retried.') });
    const reload = vi.spyOn(j.srv.inst.config, 'reload').mockImplementationOnce(() => {
      throw new Error('the disk went away');
    });
    const failed = await j.call('POST', '/api/drafts/chains/quick-task/publish');
    expect(failed.status).toBe(500);
    expect(failed.json).toEqual({
      code: 'draft_apply_failed',
      detail:
        'the files were written but applying them failed: the disk went away; the draft is kept, publish again to retry',
    });
    expect(j.disk(QUICK)).toBe(described('Retried.'));
    expect((await j.call('GET', '/api/drafts')).json).toHaveLength(1);
    const retry = await j.call('POST', '/api/drafts/chains/quick-task/publish');
    expect(retry.status).toBe(200);
    expect(retry.json.published).toEqual([QUICK]);
    expect(reload).toHaveBeenCalledTimes(2);
    reload.mockRestore();
    const chains = await j.call('GET', '/api/templates/chains');
    expect(chains.json.chains.find((c: { id: string }) => c.id === 'quick-task').description).toBe(
      'Retried.',
    );
  });
});
