import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { draftsJig, filePath, type DraftsJig } from './helpers/drafts.js';
import { cleanupAll, type HttpResult } from './helpers/server.js';

/*
 * Publishes run one at a time (src/runtime/drafts/publish.ts), so two drafts holding one file and
 * published at once cannot both pass the stale check: the first writes, the second sees the
 * first's text on disk and is refused whole. Which of the two arrives first is the network's
 * choice, so the assertions hold for either winner.
 */

let j: DraftsJig;
const DEFAULT = 'chains/default.yaml';
const MR = 'chains/merge-request.yaml';
const LIBRARY = 'library.yaml';

beforeEach(async () => {
  j = await draftsJig();
});
afterEach(async () => {
  await j.srv.close();
  await cleanupAll();
});

const publish = (area: string, key: string): Promise<HttpResult> =>
  j.call('POST', `/api/drafts/${area}/${key}/publish`);

/**
 * A library draft renaming the task `plan_author` (default.yaml and merge-request.yaml join it,
 * their `extends:` rewritten) and a chains draft of `default` whose plan task extends
 * `spec_author` instead, producing the plan: both hold default.yaml, and each is free of problems
 * whichever publishes first (neither names what the other renames away).
 */
async function twoDraftsOverDefault(): Promise<{ libraryText: string; chainText: string }> {
  const renamed = await j.call('POST', '/api/drafts/library/library/ops', {
    ops: [{ op: 'rename', path: 'tasks.plan_author', id: 'plan_writer' }],
  });
  expect(renamed.status, renamed.text).toBe(200);
  expect(Object.keys(renamed.json.files).sort()).toEqual([DEFAULT, MR, LIBRARY]);
  expect(renamed.json.result.problems).toEqual([]);
  const libraryText: string = renamed.json.files[DEFAULT];
  expect(libraryText).toContain('extends: plan_writer');

  const original = j.disk(DEFAULT)!;
  const chainText = original.replace(
    'extends: plan_author\n',
    'extends: spec_author\n        produces: plan\n',
  );
  expect(chainText).not.toBe(original);
  const put = await j.call('PUT', filePath('chains', 'default', DEFAULT), { text: chainText });
  expect(put.status, put.text).toBe(200);
  expect(put.json.result.problems).toEqual([]);
  return { libraryText, chainText };
}

/**
 * One of the two answers is 200, the other 409 naming only the shared file with the disk's text
 * (the winner's), the loser's own and their diff; the disk holds the winner's draft, nothing of the
 * loser's; the winner's draft is gone and the loser's kept.
 */
async function checkRace(
  lib: HttpResult,
  chain: HttpResult,
  texts: { libraryText: string; chainText: string },
  before: Record<string, string | null>,
): Promise<void> {
  expect([lib.status, chain.status].sort(), `${lib.text}\n${chain.text}`.slice(0, 800)).toEqual([200, 409]);
  const libraryWon = lib.status === 200;
  const [won, lost] = libraryWon ? [lib, chain] : [chain, lib];
  const winnerText = libraryWon ? texts.libraryText : texts.chainText;
  const loserText = libraryWon ? texts.chainText : texts.libraryText;

  expect(won.json.published).toEqual(libraryWon ? [DEFAULT, MR, LIBRARY] : [DEFAULT]);
  expect(lost.json.code).toBe('draft_stale');
  // Only the shared file changed under the loser: the library draft's other files are untouched.
  expect(lost.json.detail).toBe(`published since this draft began: ${DEFAULT}`);
  expect(Object.keys(lost.json.files)).toEqual([DEFAULT]);
  const stale = lost.json.files[DEFAULT];
  expect(Object.keys(stale).sort()).toEqual(['diff', 'draft', 'published']);
  expect(stale.published).toBe(winnerText);
  expect(stale.draft).toBe(loserText);
  expect(stale.diff).toMatch(/^Index: chains\/default\.yaml\n/);
  expect(stale.diff).toContain('--- chains/default.yaml\tpublished');
  expect(stale.diff).toContain('+++ chains/default.yaml\tdraft');
  const [gone, kept] = libraryWon
    ? ['extends: plan_writer', 'extends: spec_author']
    : ['extends: spec_author', 'extends: plan_writer'];
  expect(stale.diff).toContain(`\n-        ${gone}\n`);
  expect(stale.diff).toContain(`\n+        ${kept}\n`);

  expect(j.disk(DEFAULT)).toBe(winnerText);
  if (libraryWon) {
    expect(j.disk(LIBRARY)).toContain('\n  plan_writer:\n');
    expect(j.disk(MR)).toContain('extends: plan_writer');
  } else {
    // Nothing of the refused library draft was written.
    expect(j.disk(LIBRARY)).toBe(before[LIBRARY]);
    expect(j.disk(MR)).toBe(before[MR]);
  }
  const left = (await j.call('GET', '/api/drafts')).json.map((d: { area: string }) => d.area);
  expect(left).toEqual([libraryWon ? 'chains' : 'library']);
}

describe('two publishes racing over one file', () => {
  // Each order of sending, so that either draft gets the chance to win.
  it.each(['library', 'chains'])(
    'sent %s first: one 200, one 409 naming the shared file; the disk holds the winner’s text',
    async (first) => {
      const texts = await twoDraftsOverDefault();
      const before = { [LIBRARY]: j.disk(LIBRARY), [MR]: j.disk(MR) };
      let lib: Promise<HttpResult>;
      let chain: Promise<HttpResult>;
      if (first === 'library') {
        lib = publish('library', 'library');
        chain = publish('chains', 'default');
      } else {
        chain = publish('chains', 'default');
        lib = publish('library', 'library');
      }
      const [libAnswer, chainAnswer] = await Promise.all([lib, chain]);
      await checkRace(libAnswer, chainAnswer, texts, before);
    },
  );

  it('the same draft published twice at once: one 200, one 404 (the draft is gone)', async () => {
    const { libraryText } = await twoDraftsOverDefault();
    const [a, b] = await Promise.all([publish('library', 'library'), publish('library', 'library')]);
    expect([a.status, b.status].sort()).toEqual([200, 404]);
    const missed = a.status === 404 ? a : b;
    expect(missed.json).toEqual({ code: 'not_found', detail: 'a library draft of library not found' });
    expect(j.disk(DEFAULT)).toBe(libraryText);
    const left = (await j.call('GET', '/api/drafts')).json.map((d: { area: string; key: string }) => d.key);
    expect(left).toEqual(['default']);
  });
});

describe('stale before problems', () => {
  it('answers 409 with the diff, not 422, when only the newer file on disk brings the problem', async () => {
    const renamed = await j.call('POST', '/api/drafts/library/library/ops', {
      ops: [{ op: 'rename', path: 'tasks.plan_author', id: 'plan_writer' }],
    });
    expect(renamed.status).toBe(200);
    const chain = await j.call('POST', '/api/drafts/chains/default/ops', {
      ops: [{ op: 'set_field', path: '', field: 'description', value: 'Only the description.' }],
    });
    expect(chain.status).toBe(200);
    expect(chain.json.result.problems).toEqual([]);
    expect((await publish('library', 'library')).status).toBe(200);
    const res = await publish('chains', 'default');
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('draft_stale');
    expect(res.json.detail).toBe(`published since this draft began: ${DEFAULT}`);
    expect(Object.keys(res.json.files)).toEqual([DEFAULT]);
    expect(res.json.files[DEFAULT].diff).toMatch(/^\+ +extends: plan_author$/m);
    expect(j.disk(DEFAULT)).toContain('extends: plan_writer');
  });
});
