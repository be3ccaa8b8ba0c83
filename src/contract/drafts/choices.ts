import { BUILTIN_ACTIONS, FORGE_TARGETS, TASK_INPUTS, WAIT_TARGETS } from '../config/task.js';
import { Grant } from '../config/scope-policy.js';

/*
 * The closed sets the Templates editors offer (the result object's `choices`, spec drafts.md):
 * every value the chain schema accepts for these fields, each with a line saying what it does.
 * The summaries are typed against the schema's lists, so a value added there without one here
 * does not compile.
 */

export interface Choice {
  value: string;
  summary: string;
}

export interface Choices {
  ref: Choice[];
  target: (Choice & { waits: boolean })[];
  inputs: Choice[];
  grants: Choice[];
}

const REF: Record<(typeof BUILTIN_ACTIONS)[number], string> = {
  'jig.verify_changed_test_scopes':
    "Runs the repository's test scopes whose paths match the changed files, else its test_command.",
  'jig.mr_rebase': 'Rebases the work branch onto the moved base branch; a conflict goes to on_conflict.',
};

const TARGET: Record<(typeof FORGE_TARGETS)[number], string> = {
  'mr.open_draft': 'Opens the merge request as a draft.',
  'mr.sync': "Pushes the branch and updates the merge request's title and description.",
  'mr.ci': "Waits for the merge request's CI.",
  'mr.automated_review': "Waits for the forge's automated review.",
  'mr.mark_ready': 'Marks the draft merge request ready for review.',
  'mr.external_approval': 'Waits for an approval given on the forge.',
  'mr.merge': 'Merges the merge request, waiting until it can be merged.',
  'mr.post_merge_ci': 'Waits for CI on the base branch after the merge.',
};

const INPUTS: Record<(typeof TASK_INPUTS)[number], string> = {
  review_package:
    "The change as a file: the whole branch since the base, then only what changed since the task's previous session.",
  carried_findings: "The last measurement's findings, with their stable tags.",
  previous_review: "The task's own previous result and summary.",
};

const GRANTS: Record<Grant, string> = {
  'git-commit': 'Commit without asking.',
  'git-rebase': 'Rebase without asking.',
  'git-push': 'Push without asking.',
};

const listOf = <K extends string>(summaries: Record<K, string>, order: readonly K[]): Choice[] =>
  order.map((value) => ({ value, summary: summaries[value] }));

export function editorChoices(): Choices {
  return {
    ref: listOf(REF, BUILTIN_ACTIONS),
    target: listOf(TARGET, FORGE_TARGETS).map((c) => ({
      ...c,
      waits: WAIT_TARGETS.some((t) => t === c.value),
    })),
    inputs: listOf(INPUTS, TASK_INPUTS),
    grants: listOf(GRANTS, Grant.options),
  };
}
