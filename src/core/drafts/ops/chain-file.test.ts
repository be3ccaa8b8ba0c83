import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateConfigSet, type ConfigTexts } from '../../config/validate-set.js';
import { textsWithDraft } from '../texts.js';
import { deleteChain, newChain } from './chain-file.js';
import { OpRefused } from './context.js';
import { Workspace } from './workspace.js';

// The config Jig seeds a new home with: a library and three chains that all resolve.
const DEFAULTS = join(import.meta.dirname, '../../../../defaults/config');
const read = (name: string): string => readFileSync(join(DEFAULTS, name), 'utf8');
const published: ConfigTexts = {
  library: read('library.yaml'),
  chains: Object.fromEntries(
    readdirSync(join(DEFAULTS, 'chains')).map((f) => [f.replace(/\.yaml$/, ''), read(`chains/${f}`)]),
  ),
  harnesses: read('harnesses.yaml'),
  policy: read('policy.yaml'),
  repos: read('repos.yaml'),
  intake: read('intake.yaml'),
};

const ws = (key: string, opts: { opened?: boolean; drafts?: Record<string, string | null> } = {}) =>
  new Workspace('chains', key, published, [], opts.opened ?? false, opts.drafts ?? {});

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof OpRefused) return e.detail;
    throw e;
  }
  throw new Error('the op was not refused');
};

const changed = (w: Workspace) => {
  const out: Record<string, unknown> = {};
  for (const [f, t] of Object.entries(w.changedTexts())) out[f] = t === null ? null : parse(t);
  return out;
};

describe('new_chain', () => {
  it('starts a chain with no nodes when `from` is not given, which a reload shows as a problem', () => {
    const w = ws('fresh');
    expect(newChain(w, { op: 'new_chain' })).toBeUndefined();
    expect(changed(w)).toEqual({ 'chains/fresh.yaml': { nodes: [] } });

    const set = validateConfigSet(textsWithDraft(published, w.changedTexts()));
    const problems = set.files['chains/fresh.yaml']!.problems.map((p) => p.message);
    expect(problems).toEqual([expect.stringMatching(/at least one node/)]);
  });

  it('copies the published chain `from` names, which resolves as the original does', () => {
    const w = ws('copy');
    expect(newChain(w, { op: 'new_chain', from: 'default' })).toBeUndefined();
    const texts = w.changedTexts();
    expect(Object.keys(texts)).toEqual(['chains/copy.yaml']);
    expect(parse(texts['chains/copy.yaml']!)).toEqual(parse(published.chains.default!));

    const set = validateConfigSet(textsWithDraft(published, texts));
    expect(set.problems).toEqual([]);
    expect(set.chains.copy!.resolved).toEqual({ ...set.chains.default!.resolved, id: 'copy' });
  });

  it("copies from the other chain's draft when it has one, dropping an `id` naming that chain", () => {
    const drafted =
      'id: other\ndescription: drafted\nnodes:\n  - id: gate\n    kind: gate\n    message: ok?\n';
    const w = ws('copy', { drafts: { other: drafted } });
    newChain(w, { op: 'new_chain', from: 'other' });
    expect(changed(w)).toEqual({
      'chains/copy.yaml': { description: 'drafted', nodes: [{ id: 'gate', kind: 'gate', message: 'ok?' }] },
    });
  });

  it("prefers another chain's draft over its published file", () => {
    const w = ws('copy', { drafts: { default: 'nodes:\n  - id: only\n    kind: gate\n' } });
    newChain(w, { op: 'new_chain', from: 'default' });
    expect(changed(w)).toEqual({ 'chains/copy.yaml': { nodes: [{ id: 'only', kind: 'gate' }] } });
  });

  it('leaves the source chain as it was', () => {
    const texts = {
      ...published,
      chains: { ...published.chains, src: 'id: src\nnodes:\n  - id: a\n    kind: gate\n' },
    };
    const w = new Workspace('chains', 'copy', texts);
    newChain(w, { op: 'new_chain', from: 'src' });
    expect(w.doc('chains/src.yaml')).toEqual({ id: 'src', nodes: [{ id: 'a', kind: 'gate' }] });
    expect(Object.keys(w.changedTexts())).toEqual(['chains/copy.yaml']);
  });

  it('is refused for a key that already has a chain file', () => {
    expect(refusal(() => newChain(ws('default'), { op: 'new_chain' }))).toMatch(
      /^chain `default` already exists: new_chain is only for a key with no file and no draft$/,
    );
  });

  it('is refused for a key that already has a draft', () => {
    expect(refusal(() => newChain(ws('fresh', { opened: true }), { op: 'new_chain' }))).toMatch(
      /^chain `fresh` already has a draft/,
    );
  });

  it('is refused when `from` is not a chain id', () => {
    for (const from of ['Default', 'addon:Chain', ':chain', '', 'a'.repeat(65)]) {
      expect(refusal(() => newChain(ws('fresh'), { op: 'new_chain', from }))).toMatch(
        /^from ".*" is not a chain id/,
      );
    }
  });

  it('takes an add-on chain as `from`, refusing one no installed add-on has', () => {
    expect(refusal(() => newChain(ws('fresh'), { op: 'new_chain', from: 'addon:chain' }))).toBe(
      'from `addon:chain` names no add-on chain (installed: none)',
    );
  });

  it('is refused when `from` names no chain', () => {
    expect(refusal(() => newChain(ws('fresh'), { op: 'new_chain', from: 'nowhere' }))).toMatch(
      /^from `nowhere` names no chain$/,
    );
    // Its own key has no chain either.
    expect(refusal(() => newChain(ws('fresh'), { op: 'new_chain', from: 'fresh' }))).toMatch(
      /^from `fresh` names no chain$/,
    );
  });

  it("is refused when `from`'s draft deletes it", () => {
    const w = ws('fresh', { drafts: { default: null } });
    expect(refusal(() => newChain(w, { op: 'new_chain', from: 'default' }))).toMatch(
      /^from `default` names no chain$/,
    );
  });

  it("is refused when `from`'s draft does not parse, or holds no mapping", () => {
    expect(
      refusal(() =>
        newChain(ws('fresh', { drafts: { default: 'nodes: [' } }), { op: 'new_chain', from: 'default' }),
      ),
    ).toMatch(/^chain `default` has a draft whose YAML does not parse/);
    expect(
      refusal(() =>
        newChain(ws('fresh', { drafts: { default: '- a\n' } }), { op: 'new_chain', from: 'default' }),
      ),
    ).toMatch(/^chain `default` is not a mapping/);
  });
});

describe('delete_chain', () => {
  it("deletes the key's chain file; a reload no longer has the chain", () => {
    const w = ws('quick-task');
    expect(deleteChain(w, { op: 'delete_chain' })).toBeUndefined();
    expect(w.changedTexts()).toEqual({ 'chains/quick-task.yaml': null });
    expect(w.chainFiles()).toEqual([
      'chains/default.yaml',
      'chains/manual.yaml',
      'chains/merge-request.yaml',
    ]);
    const set = validateConfigSet(textsWithDraft(published, w.changedTexts()));
    expect(Object.keys(set.chains)).toEqual(['default', 'manual', 'merge-request']);
  });

  it('deletes a chain new_chain made in the same request, leaving nothing to store', () => {
    const w = ws('fresh');
    newChain(w, { op: 'new_chain' });
    deleteChain(w, { op: 'delete_chain' });
    expect(w.changedTexts()).toEqual({});
  });

  it('is refused when the key has no chain', () => {
    expect(refusal(() => deleteChain(ws('fresh'), { op: 'delete_chain' }))).toMatch(
      /^chain `fresh` has no file to delete$/,
    );
    const w = ws('default');
    deleteChain(w, { op: 'delete_chain' });
    expect(refusal(() => deleteChain(w, { op: 'delete_chain' }))).toMatch(
      /^chain `default` has no file to delete$/,
    );
  });
});
