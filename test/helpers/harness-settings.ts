import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DraftProblem } from '../../src/contract/drafts/answers.js';
import { validateConfigSet, type ConfigTexts } from '../../src/core/config/validate-set.js';
import { isObj } from '../../src/core/drafts/ops/context.js';
import type { SettingsFacts, SettingsPart } from '../../src/core/drafts/settings/docs.js';
import { HARNESS_OPS } from '../../src/core/drafts/settings/harness-ops.js';
import {
  harnessesResult,
  type HarnessesImpact,
  type HarnessesResolved,
} from '../../src/core/drafts/settings/harnesses-result.js';
import { SettingsWorkspace } from '../../src/core/drafts/settings/workspace.js';
import { parsedOrNull, textOf, textsWithDraft } from '../../src/core/drafts/texts.js';
import { loadProviders } from '../../src/core/harness/load-providers.js';
import { readConfigDir } from '../../src/runtime/config/config-dir.js';

/*
 * The harnesses draft's ops and result on the seeded config (defaults/config) and the packaged
 * provider definitions (defaults/harnesses), for the core tests of the harnesses settings area.
 */

const root = join(import.meta.dirname, '../..');

export const SEEDED: ConfigTexts = readConfigDir(join(root, 'defaults/config'), null).texts;

const providerDir = join(root, 'defaults/harnesses');
export const PROVIDERS = loadProviders({
  packaged: readdirSync(providerDir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ file: `defaults/harnesses/${f}`, text: readFileSync(join(providerDir, f), 'utf8') })),
}).providers;

/** Runtime facts: only the executables named in `found` resolve. */
export function facts(found: readonly string[] = ['claude', 'codex']): SettingsFacts {
  return {
    executableFound: Object.fromEntries(
      ['claude', 'codex', 'gemini', 'cursor', 'opencode', 'amp', 'antigravity'].map((h) => [
        h,
        found.includes(h),
      ]),
    ),
    providers: PROVIDERS,
    repoPath: () => 'git',
    openItems: {},
  };
}

/** The seeded texts with `harnesses.yaml`, `policy.yaml` or chains replaced. */
export function texts(
  over: { harnesses?: string; policy?: string; chains?: Record<string, string> } = {},
): ConfigTexts {
  return {
    ...SEEDED,
    ...(over.harnesses !== undefined ? { harnesses: over.harnesses } : {}),
    ...(over.policy !== undefined ? { policy: over.policy } : {}),
    chains: over.chains ?? SEEDED.chains,
  };
}

/** A harnesses workspace on these texts. */
export const workspace = (t: ConfigTexts = SEEDED, f: SettingsFacts = facts()): SettingsWorkspace =>
  new SettingsWorkspace('harnesses', t, () => validateConfigSet(t), f);

/** Parses and runs each raw op in order, answering each op's result. */
export function apply(ws: SettingsWorkspace, ...ops: Record<string, unknown>[]): unknown[] {
  return ops.map((raw) => {
    const op = typeof raw.op === 'string' ? raw.op : '';
    return HARNESS_OPS.run(ws, HARNESS_OPS.parse({ ...raw, op }));
  });
}

/** The working copy of a file as the ops left it. */
export function docOf(ws: SettingsWorkspace, file: string): Record<string, unknown> {
  const d = ws.doc(file);
  if (!isObj(d)) throw new Error(`${file} is not a mapping`);
  return d;
}

/** A dotted path into a plain value (`defaults.allowed_harnesses`). */
export function at(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const seg of path.split('.')) cur = isObj(cur) ? cur[seg] : undefined;
  return cur;
}

/**
 * The harnesses result once the ops of `ws` are in a draft over `base`: the draft holds each file
 * the ops changed (its published model as `before`, the draft's as `after`).
 */
export function resultOf(
  ws: SettingsWorkspace,
  base: ConfigTexts = SEEDED,
  f: SettingsFacts = facts(),
): SettingsPart<HarnessesResolved, HarnessesImpact> {
  const changed = ws.changedTexts();
  const drafted = textsWithDraft(base, changed);
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const file of Object.keys(changed)) {
    before[file] = parsedOrNull(textOf(base, file));
    after[file] = parsedOrNull(textOf(drafted, file));
  }
  return harnessesResult({ set: validateConfigSet(drafted), before, after, facts: f });
}

/** `file path.field: message` of each problem, for whole-list assertions. */
export const problemLines = (ps: readonly DraftProblem[]): string[] =>
  ps.map((p) => `${p.file} ${[p.path, p.field].filter(Boolean).join('.')}: ${p.message}`);
