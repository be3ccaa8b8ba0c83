import { join } from 'node:path';
import { validateConfigSet, type ConfigTexts } from '../../src/core/config/validate-set.js';
import type { SettingsFacts, SettingsInput, SettingsOpSet } from '../../src/core/drafts/settings/docs.js';
import { SettingsWorkspace } from '../../src/core/drafts/settings/workspace.js';
import { parseText, textOf, textsWithDraft } from '../../src/core/drafts/texts.js';
import { readConfigDir } from '../../src/runtime/config/config-dir.js';

/*
 * Fixtures for the repos and intake settings areas: the seeded config, a repos.yaml with a managed
 * and a detected entry, hand-written runtime facts, and the workspace and result input built from
 * them the way the drafts runtime builds them.
 */

export const SEEDED: ConfigTexts = readConfigDir(
  join(import.meta.dirname, '../../defaults/config'),
  null,
).texts;

/** A connected repo with every layer key set, and a submodule Jig found by itself. */
export const REPOS_YAML = `# Connected repositories.
repos:
  - path: /src/web # the web app
    name: web
    default_chain: quick-task
    enabled: true
    test_command: npm test
    steering:
      - project-standards
    deny_tools: [WebFetch]
    models:
      claude: opus
    policy:
      budget_usd: 5
      deny_tools: [Bash]
      allowed_harnesses: [claude]
  - path: /src/web/vendor/lib
    managed: false # found by Jig
`;

export const WEB = '/src/web';
export const LIB = '/src/web/vendor/lib';

export type PathKind = ReturnType<SettingsFacts['repoPath']>;

/** Facts with every path a git repository with commits unless `paths` says otherwise. */
export function facts(
  over: { paths?: Record<string, PathKind>; openItems?: Record<string, number> } = {},
): SettingsFacts {
  return {
    executableFound: {},
    providers: {},
    repoPath: (p) => over.paths?.[p] ?? 'git',
    openItems: over.openItems ?? {},
  };
}

/** The seeded config with some files' texts laid over (`{'repos.yaml': text}`). */
export const textsWith = (files: Record<string, string | null> = {}): ConfigTexts =>
  textsWithDraft(SEEDED, files);

export function workspace(
  area: 'repos' | 'intake',
  files: Record<string, string | null> = {},
  f: SettingsFacts = facts(),
): SettingsWorkspace {
  const texts = textsWith(files);
  return new SettingsWorkspace(area, texts, () => validateConfigSet(texts), f);
}

/** Parses and runs ops in order, as the runner does (a refusal throws `OpRefused`). */
export function runOps<Op extends { op: string }>(
  ws: SettingsWorkspace,
  set: SettingsOpSet<Op>,
  raw: readonly ({ op: string } & Record<string, unknown>)[],
): unknown[] {
  const ops = raw.map((r) => set.parse(r));
  return ops.map((op) => set.run(ws, op));
}

const parsed = (text: string | null): unknown => {
  const r = parseText(text);
  if (!r.ok) throw new Error('fixture text does not parse');
  return r.value;
};

/**
 * A result input for a draft of `file`: `published` is the file on disk (undefined: the seeded
 * one), `drafted` the draft's text (null: the draft deletes it).
 */
export function input(
  file: string,
  drafted: string | null,
  published?: string | null,
  f: SettingsFacts = facts(),
  others: Record<string, string | null> = {},
): SettingsInput {
  const base = textsWith(published === undefined ? others : { ...others, [file]: published });
  const texts = textsWithDraft(base, { [file]: drafted });
  return {
    set: validateConfigSet(texts),
    before: { [file]: parsed(textOf(base, file)) },
    after: { [file]: parsed(drafted) },
    facts: f,
  };
}
