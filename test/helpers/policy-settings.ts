import { join } from 'node:path';
import { parse } from 'yaml';
import { validateConfigSet, type ConfigTexts } from '../../src/core/config/validate-set.js';
import { OpRefused } from '../../src/core/drafts/ops/context.js';
import type { SettingsDocs, SettingsFacts, SettingsInput } from '../../src/core/drafts/settings/docs.js';
import { POLICY_OPS } from '../../src/core/drafts/settings/policy-ops.js';
import { readConfigDir } from '../../src/runtime/config/config-dir.js';

/*
 * Inputs for the policy area's core tests: the seeded config (defaults/config) with a policy.yaml
 * text or chain files of the test's own laid over it, and working documents the ops change.
 */

export const SEEDED: ConfigTexts = readConfigDir(
  join(import.meta.dirname, '../../defaults/config'),
  null,
).texts;

export const FACTS: SettingsFacts = {
  executableFound: {},
  providers: {},
  repoPath: () => 'git',
  openItems: {},
};

/** The seeded texts with a policy.yaml (null: none) and extra chain files. */
export function textsWith(
  policy: string | null | undefined,
  chains: Record<string, string> = {},
): ConfigTexts {
  return {
    ...SEEDED,
    ...(policy === undefined ? {} : { policy }),
    chains: { ...SEEDED.chains, ...chains },
  };
}

/** Working documents over `policy` (parsed), as the lead's runner hands them to an op. */
export function policyDocs(policy: string | null): SettingsDocs & { files: Record<string, unknown> } {
  const texts = textsWith(policy);
  const files: Record<string, unknown> = { 'policy.yaml': policy === null ? null : (parse(policy) ?? null) };
  return {
    area: 'policy',
    files,
    doc: (file) => files[file] ?? null,
    setDoc: (file, v) => {
      files[file] = v;
    },
    set: validateConfigSet(texts),
    facts: FACTS,
  };
}

/** Runs raw ops in order through the area's parse and run; answers the policy.yaml document after. */
export function runPolicyOps(policy: string | null, ...ops: { op: string; [k: string]: unknown }[]): unknown {
  const docs = policyDocs(policy);
  for (const raw of ops) POLICY_OPS.run(docs, POLICY_OPS.parse(raw));
  return docs.files['policy.yaml'];
}

/** The detail of the refusal the ops end in (fails when none is refused). */
export function policyRefusal(policy: string | null, ...ops: { op: string; [k: string]: unknown }[]): string {
  try {
    runPolicyOps(policy, ...ops);
  } catch (e) {
    if (e instanceof OpRefused) return e.detail;
    throw e;
  }
  throw new Error('the op was not refused');
}

/** A result input: the draft's policy.yaml `after` over the published `before` (seeded when undefined). */
export function policyInput(
  after: string,
  opts: { before?: string; chains?: Record<string, string> } = {},
): SettingsInput {
  const before = opts.before ?? SEEDED.policy ?? null;
  return {
    set: validateConfigSet(textsWith(after, opts.chains)),
    before: { 'policy.yaml': before === null ? null : parse(before) },
    after: { 'policy.yaml': parse(after) },
    facts: FACTS,
  };
}
