import { editorChoices } from '../../contract/drafts/choices.js';
import { validateConfigSet } from '../../core/config/validate-set.js';
import type { SettingsAreaName } from '../../core/drafts/settings/docs.js';
import { chainBreaks, withBreaks } from '../../core/drafts/settings/chain-breaks.js';
import { dottedChanges } from '../../core/drafts/settings/key-changes.js';
import { settingsPart } from '../../core/drafts/settings/result.js';
import { firstYamlError, parsedOrNull, parseText, textsWithDraft } from '../../core/drafts/texts.js';
import type { DraftRecord } from '../../store/drafts.js';
import type { FactSource } from './settings-facts.js';
import type { DraftResultView, Snapshot } from './view.js';

/**
 * The result object of a settings draft (spec drafts.md, rule 2): the whole config set with the
 * draft laid over, checked as a reload would, so its problems are what the matching save route
 * would refuse; the area adds its resolved answer, its own problems, changes and impact.
 */
export function settingsResult(
  area: SettingsAreaName,
  files: string[],
  draft: DraftRecord | null,
  snap: Pick<Snapshot, 'texts' | 'set'>,
  published: Record<string, string | null>,
  facts: FactSource,
): DraftResultView {
  const overlaid = textsWithDraft(snap.texts, draft?.files ?? {});
  const set = validateConfigSet(overlaid);
  const drafted = (f: string) =>
    draft && f in draft.files ? (draft.files[f] ?? null) : (published[f] ?? null);
  const model: Record<string, unknown> = {};
  const before: Record<string, unknown> = {};
  for (const f of files) {
    const read = parseText(drafted(f));
    const fallback =
      draft && f in draft.last_parsed ? draft.last_parsed[f] : parsedOrNull(published[f] ?? null);
    model[f] = read.ok ? read.value : fallback;
    before[f] = parsedOrNull(published[f] ?? null);
  }
  const part = settingsPart(area, { set, before, after: model, facts: facts.forTexts(overlaid) });
  // Policy and harness access reach every chain: what the draft would break there is its problem,
  // as `PUT /api/policy` refuses it.
  const problems =
    area === 'policy' || area === 'harnesses'
      ? withBreaks(part.problems, chainBreaks(snap.set(), set))
      : part.problems;
  // A file the draft deletes, or whose text does not parse, is one file-level row, whatever the area.
  const whole = files.filter(
    (f) => draft && f in draft.files && (draft.files[f] === null || !parseText(draft.files[f] ?? null).ok),
  );
  const changes = [
    ...part.changes.filter((c) => c.file === undefined || !whole.includes(c.file)),
    ...whole.flatMap((f) =>
      dottedChanges(f, before[f], model[f], {
        deleted: draft?.files[f] === null,
        unparsable: draft?.files[f] !== null,
      }),
    ),
  ];
  const policy = set.policy.model;
  return {
    model,
    resolved: part.resolved,
    problems,
    sources: null,
    changes,
    impact: part.impact,
    // Settings ops write over each file's own text and a PUT stores text as typed: nothing is
    // rewritten whole, so no comment is ever dropped.
    warnings: [],
    policy_values: {
      auto_escalate_delay_s: policy?.auto_escalate_delay_s ?? 0,
      auto_review_attempts: policy?.auto_review_attempts ?? 1,
    },
    choices: editorChoices(),
    yaml_error: firstYamlError(draft?.files ?? {}),
  };
}
