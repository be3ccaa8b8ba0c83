import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { SkillCatalog, stripFrontMatter } from './skills.js';

const packaged = join(packageRoot, 'defaults', 'skills');
/** Every skill the seeded library and the engine name. */
const SHIPPED = [
  'spec',
  'plan',
  'code-review',
  'security-review',
  'fix-loop-judge',
  'gate-review',
  'work-brief',
  'review-brief',
  'mr-metadata',
  'mr-metadata-repair',
  'mr-checks-repair',
  'chain-review',
];

let configDir: string;
beforeEach(() => {
  configDir = mkdtempSync(join(tmpdir(), 'jig-skills-'));
});
afterEach(() => rmSync(configDir, { recursive: true, force: true }));

function userSkill(name: string, text: string): string {
  const dir = join(configDir, 'skills', name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'SKILL.md');
  writeFileSync(file, text);
  return file;
}

describe('SkillCatalog', () => {
  it('reads every packaged skill as jig:<name>, without its front matter', () => {
    const catalog = new SkillCatalog(configDir);
    expect(readdirSync(packaged).sort()).toEqual([...SHIPPED].sort());
    for (const name of SHIPPED) {
      const r = catalog.text(`jig:${name}`);
      if (!r.ok) throw new Error(r.reason);
      expect(r.origin).toBe(join(packaged, name, 'SKILL.md'));
      expect(r.text.startsWith('# ')).toBe(true);
      expect(r.text).not.toMatch(/^---/m);
      expect(r.text).toContain('$JIG_RESULT_PATH');
      const lines = readFileSync(r.origin, 'utf8').trimEnd().split('\n').length;
      expect(lines).toBeGreaterThanOrEqual(15);
      expect(lines).toBeLessThanOrEqual(50);
    }
  });

  it('document-producing skills write to $JIG_ARTIFACT_PATH and report artifact_ref', () => {
    const catalog = new SkillCatalog(configDir);
    for (const name of ['spec', 'plan', 'work-brief', 'review-brief', 'mr-metadata', 'chain-review']) {
      const r = catalog.text(`jig:${name}`);
      expect(r.ok && r.text).toContain('$JIG_ARTIFACT_PATH');
      expect(r.ok && r.text).toContain('artifact_ref');
    }
  });

  it('a bare name reads the user skill first, then falls back to the packaged one', () => {
    const catalog = new SkillCatalog(configDir);
    const fallback = catalog.text('spec');
    expect(fallback).toMatchObject({ ok: true, origin: join(packaged, 'spec', 'SKILL.md') });
    const file = userSkill('spec', '---\nname: spec\ndescription: mine\n---\n\nMy own spec rules.\n');
    expect(catalog.text('spec')).toEqual({ ok: true, text: 'My own spec rules.\n', origin: file });
    // jig: always means the packaged one.
    expect(catalog.text('jig:spec')).toMatchObject({ ok: true, origin: join(packaged, 'spec', 'SKILL.md') });
    const own = userSkill('house-rules', 'Use tabs.\n');
    expect(catalog.text('house-rules')).toEqual({ ok: true, text: 'Use tabs.\n', origin: own });
    expect(catalog.text('jig:house-rules')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not found/),
    });
  });

  it('re-reads a file when it changes, and serves the cache when it does not', () => {
    const catalog = new SkillCatalog(configDir);
    const file = userSkill('mine', 'First.\n');
    expect(catalog.text('mine')).toMatchObject({ ok: true, text: 'First.\n' });
    const later = new Date(Date.now() + 5_000);
    writeFileSync(file, 'Second, longer.\n');
    utimesSync(file, later, later);
    expect(catalog.text('mine')).toMatchObject({ ok: true, text: 'Second, longer.\n' });
    // Same size and modification time: the cached text is served (proof that it was cached).
    writeFileSync(file, 'Second, LONGER.\n');
    utimesSync(file, later, later);
    expect(catalog.text('mine')).toMatchObject({ ok: true, text: 'Second, longer.\n' });
  });

  it('refuses names that could leave the skills folder', () => {
    const catalog = new SkillCatalog(configDir);
    for (const ref of ['jig:../x', '../x', 'jig:a/b', 'jig:', '', 'Spec', 'jig:.hidden', 'jig:a:b', 'x/..']) {
      const r = catalog.text(ref);
      expect(r.ok, ref).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/skill name|not a skill reference|add-on/);
    }
    // A file planted where an escape would land is never read.
    writeFileSync(join(configDir, 'SKILL.md'), 'escaped');
    expect(catalog.text('jig:../../../' + configDir).ok).toBe(false);
  });

  it('answers a namespace that is no installed add-on with how to see the installed ones', () => {
    const r = new SkillCatalog(configDir).text('release:notes');
    expect(r).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/is not an installed add-on/),
    });
  });

  it('reports missing, empty and unreadable skills', () => {
    const catalog = new SkillCatalog(configDir);
    expect(catalog.text('nope')).toMatchObject({ ok: false, reason: expect.stringMatching(/not found/) });
    expect(catalog.text('jig:nope')).toMatchObject({ ok: false, reason: expect.stringMatching(/not found/) });
    userSkill('blank', '---\nname: blank\n---\n\n');
    expect(catalog.text('blank')).toMatchObject({ ok: false, reason: expect.stringMatching(/empty/) });
    mkdirSync(join(configDir, 'skills', 'dir', 'SKILL.md'), { recursive: true });
    expect(catalog.text('dir')).toMatchObject({ ok: false, reason: expect.stringMatching(/not a file/) });
  });
});

describe('stripFrontMatter', () => {
  it('removes a leading block only', () => {
    expect(stripFrontMatter('---\na: 1\n---\n# Title\n')).toBe('# Title\n');
    expect(stripFrontMatter('\uFEFF---\r\na: 1\r\n...\r\n\r\nBody')).toBe('Body');
    expect(stripFrontMatter('# Title\n---\nnot: front\n---\n')).toBe('# Title\n---\nnot: front\n---\n');
    expect(stripFrontMatter('---\nnever closed\n')).toBe('---\nnever closed\n');
  });
});
