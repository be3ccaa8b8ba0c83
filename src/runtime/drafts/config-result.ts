import type { Problem } from '../../contract/problems.js';
import type { ResolvedChain } from '../../core/chain/model.js';
import { chainSources, type ChainSources } from '../../core/chain/sources.js';
import { libraryProblems } from '../../core/drafts/library-problems.js';
import {
  firstYamlError,
  parseText,
  textOf,
  textsWithDraft,
  type YamlError,
} from '../../core/drafts/texts.js';
import {
  validateConfigSet,
  type ConfigSetOptions,
  type ConfigTexts,
} from '../../core/config/validate-set.js';
import { own } from '../../core/json/own.js';
import type { DraftRecord } from '../../store/drafts.js';

/**
 * The parts of a chains or library draft's result object (spec drafts.md, "The result object")
 * that come from validating the whole config set with the draft laid over it: the same checks a
 * reload runs, so a draft with no problem is one a publish can apply.
 */
export interface ConfigResultCore {
  /** Per file of the draft area: the mapping it parses to (or, while it does not, the last one that did). */
  model: Record<string, unknown>;
  resolved: ResolvedChain | null;
  problems: Problem[];
  sources: ChainSources | null;
  policy_values: { auto_escalate_delay_s: number; auto_review_attempts: number };
  yaml_error: YamlError | null;
}

/** The chain texts a chain draft holds: its key's, and one a rename moved it to. */
function ownChains(
  chains: Record<string, string>,
  key: string,
  draft: DraftRecord | null,
): Record<string, string> {
  const ids = new Set([key]);
  for (const f of Object.keys(draft?.files ?? {})) {
    const m = /^chains\/([^/]+)\.yaml$/.exec(f);
    if (m?.[1] !== undefined) ids.add(m[1]);
  }
  return Object.fromEntries(Object.entries(chains).filter(([id]) => ids.has(id)));
}

/** What a text parses to, else what `fallback` says stands in for it. */
function parsedOr(text: string | null, fallback: () => unknown): unknown {
  const r = parseText(text);
  return r.ok ? r.value : fallback();
}

export function configResultCore(
  area: 'chains' | 'library',
  key: string,
  files: readonly string[],
  published: ConfigTexts,
  draft: DraftRecord | null,
  opts: ConfigSetOptions = {},
): ConfigResultCore {
  const overlaid = textsWithDraft(published, draft?.files ?? {});
  // A chain's problems come from its own file checked against the library and the settings files;
  // the other chains cannot change them, so a chain draft checks only its own chain files (an op
  // answers in a fraction of a whole-library check). The library is checked against every chain.
  const texts =
    area === 'chains' ? { ...overlaid, chains: ownChains(overlaid.chains, key, draft) } : overlaid;
  const set = validateConfigSet(texts, opts);
  const publishedText = (file: string): string | null => textOf(published, file);
  const all = [...new Set([...files, ...Object.keys(draft?.files ?? {})])];
  const model = Object.fromEntries(
    all.map((file) => {
      const text = draft && file in draft.files ? (draft.files[file] ?? null) : publishedText(file);
      const fallback = () =>
        draft && file in draft.last_parsed
          ? draft.last_parsed[file]
          : parsedOr(publishedText(file), () => null);
      return [file, parsedOr(text, fallback)];
    }),
  );
  const chain = area === 'chains' ? own(set.chains, key) : undefined;
  // A chain draft answers for its own files; the library for everything a library save would
  // refuse, each naming the chain or repo it breaks and the component it comes from.
  const problems =
    area === 'library' ? libraryProblems(set) : all.flatMap((file) => set.files[file]?.problems ?? []);
  const policy = set.policy.model;
  return {
    model,
    resolved: chain?.resolved ?? null,
    problems,
    sources: chain ? chainSources(chain, policy) : null,
    policy_values: {
      auto_escalate_delay_s: policy?.auto_escalate_delay_s ?? 0,
      auto_review_attempts: policy?.auto_review_attempts ?? 1,
    },
    yaml_error: firstYamlError(draft?.files ?? {}),
  };
}
