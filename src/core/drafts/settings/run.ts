import { OpRefused } from '../ops/context.js';
import { OpsRefused } from '../ops/run.js';
import type { SettingsAreaName, SettingsDocs, SettingsOpSet } from './docs.js';
import { HARNESS_OPS } from './harness-ops.js';
import { INTAKE_OPS } from './intake-ops.js';
import { POLICY_OPS } from './policy-ops.js';
import { REPO_OPS } from './repo-ops.js';

type OpAnswer = { op: string; result?: unknown };

/**
 * Every op is checked before any applies (a malformed op refuses the whole request with its
 * index), then they apply in order; a refusal names the op's index and the caller saves nothing.
 */
function runWith<Op extends { op: string }>(
  set: SettingsOpSet<Op>,
  docs: SettingsDocs,
  raw: readonly { op: string }[],
): OpAnswer[] {
  const at = <T>(i: number, f: () => T): T => {
    try {
      return f();
    } catch (e) {
      if (e instanceof OpRefused) throw new OpsRefused(e.detail, i, e.extra);
      throw e;
    }
  };
  const ops = raw.map((r, i) => at(i, () => set.parse(r)));
  return ops.map((op, i) =>
    at(i, () => {
      const result = set.run(docs, op);
      return result === undefined ? { op: op.op } : { op: op.op, result };
    }),
  );
}

/** Applies a settings draft's ops to its documents (spec drafts.md, "Harnesses ops" to "Intake ops"). */
export function runSettingsOps(
  area: SettingsAreaName,
  docs: SettingsDocs,
  raw: readonly { op: string }[],
): OpAnswer[] {
  switch (area) {
    case 'harnesses':
      return runWith(HARNESS_OPS, docs, raw);
    case 'repos':
      return runWith(REPO_OPS, docs, raw);
    case 'policy':
      return runWith(POLICY_OPS, docs, raw);
    case 'intake':
      return runWith(INTAKE_OPS, docs, raw);
  }
}
