import type { HarnessesFile } from '../../../contract/config/harnesses.js';
import type { DraftProblem } from '../../../contract/drafts/answers.js';
import type { ProviderDefinition } from '../../../contract/harness/provider.js';
import { checkReferences } from '../../config/check-references.js';
import { didYouMean } from '../../config/suggest.js';
import { locate, type ANode, type PathSeg } from '../../config/tree.js';
import type { SettingsInput } from './docs.js';
import { HARNESSES_FILE, POLICY_FILE, accessState, type AccessLists } from './harness-docs.js';
import { DEFAULT_HARNESS } from '../../../contract/config/harnesses.js';
import { chainTasks, launchesOf, type ChainTask, type Launch } from './harness-tasks.js';

/*
 * The harnesses draft's own problems, beside the checks of harnesses.yaml and policy.yaml: what
 * the chains' agent tasks could not launch on once the draft is published (a `never` harness, a
 * profile with no model for the harness's provider, a name the draft took away), options a
 * harness's provider does not take, and escalation on a `never` harness.
 */

/** The launch options harnesses.yaml `defaults:` can set, each the provider capability of that name. */
const OPTIONS = ['model', 'effort', 'permission_mode'] as const;
type OptionName = (typeof OPTIONS)[number];
const isOption = (k: string): k is OptionName => (OPTIONS as readonly string[]).includes(k);

const where = (tree: ANode | null, file: string, path: PathSeg[], mode: 'key' | 'value') =>
  tree ? { ...locate(tree, path, mode), file } : { file, line: null, col: null };

/** `defaults` options the harness's provider does not take, or a value outside the ones it accepts. */
export function optionProblems(
  model: HarnessesFile,
  tree: ANode | null,
  providers: Readonly<Record<string, ProviderDefinition>>,
): DraftProblem[] {
  const out: DraftProblem[] = [];
  for (const [id, entry] of Object.entries(model.harnesses)) {
    const def = Object.hasOwn(providers, entry.provider) ? providers[entry.provider] : undefined;
    if (!def) {
      // A provider is any definition's id (a CLI added as YAML), so the schema cannot list them.
      out.push({
        path: `harnesses.${id}`,
        field: 'provider',
        message: `provider \`${entry.provider}\` has no definition (defaults/harnesses/ or config/harnesses/${entry.provider}.yaml)${didYouMean(entry.provider, Object.keys(providers))}`,
        ...where(tree, HARNESSES_FILE, ['harnesses', id, 'provider'], 'value'),
      });
      continue;
    }
    for (const [opt, value] of Object.entries(entry.defaults ?? {})) {
      if (value === null) continue;
      const path = `harnesses.${id}.defaults`;
      const cap = isOption(opt) ? def.capabilities[opt] : undefined;
      if (!cap) {
        const takes = OPTIONS.filter((o) => def.capabilities[o]);
        out.push({
          path,
          field: opt,
          message: `provider \`${entry.provider}\` does not take option \`${opt}\` (it takes ${takes.map((o) => `\`${o}\``).join(', ') || 'none'})`,
          provider: entry.provider,
          ...where(tree, HARNESSES_FILE, ['harnesses', id, 'defaults', opt], 'key'),
        });
      } else if (cap.values && !cap.values.some((re) => new RegExp(re).test(value))) {
        out.push({
          path,
          field: opt,
          message: `provider \`${entry.provider}\` does not accept ${opt} \`${value}\` (${cap.values.join(' or ')})`,
          provider: entry.provider,
          ...where(tree, HARNESSES_FILE, ['harnesses', id, 'defaults', opt], 'value'),
        });
      }
    }
  }
  return out;
}

/** The task key a launch's harness or profile choice is written at (a profile's fallback: its `profile`). */
function fieldOf(l: Launch, key: 'harness' | 'profile'): { field: string; at: PathSeg[] } {
  if (l.field === null) return { field: 'profile', at: ['profile'] };
  if (l.index === 0) return { field: key, at: key === 'harness' ? l.field : ['profile'] };
  return { field: `fallback.${l.index - 1}.${key}`, at: l.field };
}

function taskProblem(t: ChainTask, l: Launch, key: 'harness' | 'profile', message: string): DraftProblem {
  const f = fieldOf(l, key);
  const at = t.at(f.at);
  return { path: t.path, field: f.field, message, chain: t.chain, ...at };
}

/**
 * Each agent task's launches (its own, then each fallback): on a `never` harness, on a harness or
 * profile harnesses.yaml does not have, or with a profile that has no model for the provider of
 * the harness it runs on (a launch problem, carrying `profile` and `provider`).
 */
export function taskProblems(input: SettingsInput, model: HarnessesFile, lists: AccessLists): DraftProblem[] {
  const out: DraftProblem[] = [];
  const seen = new Set<string>();
  const never = new Set<string>();
  const push = (p: DraftProblem) => {
    const k = `${p.chain ?? ''}\0${p.path}\0${p.field ?? ''}\0${p.message}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push(p);
  };
  for (const t of chainTasks(input.set)) {
    if (!t.agent) continue;
    for (const l of launchesOf(t.value, model.profiles)) {
      const how = l.index === 0 ? 'runs on' : 'falls back to';
      const entry = Object.hasOwn(model.harnesses, l.harness) ? model.harnesses[l.harness] : undefined;
      // One problem per task and never harness: its own launch, else the first fallback there.
      const neverKey = `${t.chain}\0${t.path}\0${l.harness}`;
      if (accessState(l.harness, lists) === 'never' && !never.has(neverKey)) {
        never.add(neverKey);
        push(
          taskProblem(
            t,
            l,
            'harness',
            `harness \`${l.harness}\` is never allowed by policy.yaml, and chain \`${t.chain}\` task \`${t.path}\` ${how} it`,
          ),
        );
      }
      if (!entry) {
        // A profile's own fallback naming no harness is a problem of harnesses.yaml already.
        if (l.field !== null) {
          push(
            taskProblem(
              t,
              l,
              'harness',
              `chain \`${t.chain}\` task \`${t.path}\` ${how} harness \`${l.harness}\`, which is not in harnesses.yaml`,
            ),
          );
        }
        continue;
      }
      if (l.profile === null) continue;
      const profile = Object.hasOwn(model.profiles, l.profile) ? model.profiles[l.profile] : undefined;
      if (!profile) {
        if (l.field !== null) {
          push(
            taskProblem(
              t,
              l,
              'profile',
              `chain \`${t.chain}\` task \`${t.path}\` names profile \`${l.profile}\`, which is not in harnesses.yaml`,
            ),
          );
        }
        continue;
      }
      const provider = entry.provider;
      if (!profile.providers?.[provider]?.model && !profile.model?.[provider]) {
        push({
          ...taskProblem(
            t,
            l,
            'profile',
            `profile \`${l.profile}\` has no model for provider \`${provider}\`, so chain \`${t.chain}\` task \`${t.path}\` cannot launch on harness \`${l.harness}\``,
          ),
          profile: l.profile,
          provider,
        });
      }
    }
  }
  return out;
}

/** Escalation (policy.yaml's harness, else the default) on a `never` harness. */
export function escalationProblems(input: SettingsInput, lists: AccessLists): DraftProblem[] {
  const load = input.set.policy;
  const named = load.model?.defaults?.escalation_harness;
  const harness = named ?? DEFAULT_HARNESS;
  // `item` is the harness the item's own work ran on, which its tasks' checks already cover.
  if (harness === 'item' || accessState(harness, lists) !== 'never') return [];
  const unset =
    named === undefined ? ` (the harness escalation uses while \`escalation_harness\` is unset)` : '';
  return [
    {
      path: 'defaults',
      field: 'escalation_harness',
      message: `escalation runs on harness \`${harness}\`${unset}, which is never allowed by policy.yaml`,
      ...(named === undefined
        ? { file: POLICY_FILE, line: null, col: null }
        : where(load.tree, POLICY_FILE, ['defaults', 'escalation_harness'], 'value')),
    },
  ];
}

/**
 * Library components naming a harness or profile the draft's harnesses.yaml does not have (a
 * renamed profile leaves them dangling). Chain tasks are covered by `taskProblems`; these are the
 * library's own values, which no chain may use.
 */
export function libraryProblems(input: SettingsInput, model: HarnessesFile): DraftProblem[] {
  const lib = input.set.library;
  if (!lib.tree) return [];
  const known = {
    harnesses: Object.keys(model.harnesses),
    profiles: Object.keys(model.profiles),
    steering: [],
    steeringExists: () => true,
  };
  return checkReferences(lib.tree, lib.file, known, true).map((p) => ({ ...p, chain: null }));
}
