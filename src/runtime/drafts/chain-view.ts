import { editorChoices } from '../../contract/drafts/choices.js';
import type { Problem } from '../../contract/problems.js';
import type { ConfigTexts } from '../../core/config/validate-set.js';
import { loadRepos } from '../../core/config/load-settings.js';
import { chainChanges } from '../../core/drafts/chain-changes.js';
import {
  eitherUses,
  libraryChanges,
  libraryUses,
  type LibraryChange,
} from '../../core/drafts/library-changes.js';
import { movedChainFile, parsedOrNull, textsWithDraft } from '../../core/drafts/texts.js';
import { openItemsOnChain } from '../../store/item-scans.js';
import type { Db, DraftRecord } from '../../store/drafts.js';
import { configResultCore } from './config-result.js';
import type { DraftChange, DraftImpact, DraftResultView } from './view.js';

/** A chain file's mapping without its `id:` (a renamed chain's id is the rename row, not a change). */
function withoutId(doc: unknown): unknown {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return doc;
  return Object.fromEntries(Object.entries(doc).filter(([k]) => k !== 'id'));
}

/** Repos whose default chain is `key` (a repo that names none runs `default`). */
function reposDefaulting(texts: ConfigTexts, key: string): string[] {
  const repos = loadRepos(texts.repos ?? null).model?.repos ?? [];
  return repos
    .filter((r) => (r.default_chain ?? r.default_chain_template ?? 'default') === key)
    .map((r) => r.path);
}

/** The library's changes, each with the chains it reaches as published or drafted. */
function libraryChangesOf(texts: ConfigTexts, draft: DraftRecord | null, drafted: unknown): LibraryChange[] {
  const chainsOf = (t: ConfigTexts) =>
    Object.fromEntries(Object.entries(t.chains).map(([id, text]) => [id, parsedOrNull(text)]));
  const overlaid = textsWithDraft(texts, draft?.files ?? {});
  const published = parsedOrNull(texts.library);
  const uses = eitherUses(libraryUses(chainsOf(texts), published), libraryUses(chainsOf(overlaid), drafted));
  return libraryChanges(published, drafted, uses);
}

/**
 * A chain draft's changes: its chain against the published file, or, once a rename moved it,
 * one `rename` row at "" and the moved chain against the old file; a library file an op joined
 * (`move_to_library`) adds the library's own rows.
 */
function chainDraftChanges(
  key: string,
  draft: DraftRecord | null,
  published: Record<string, string | null>,
  model: Record<string, unknown>,
  texts: ConfigTexts,
): DraftChange[] {
  const own = `chains/${key}.yaml`;
  const was = parsedOrNull(published[own] ?? null);
  const moved = movedChainFile(key, draft?.files ?? {});
  const out: DraftChange[] = [];
  if (moved && draft?.files[own] === null) {
    const to = moved.slice('chains/'.length, -'.yaml'.length);
    out.push({ path: '', kind: 'rename', summary: `renamed ${key} to ${to}`, from: key, to });
    out.push(...chainChanges(was, withoutId(model[moved])));
  } else {
    out.push(...chainChanges(was, model[own] ?? null));
  }
  if (draft && 'library.yaml' in draft.files) {
    out.push(...libraryChangesOf(texts, draft, model['library.yaml'] ?? null));
  }
  return out;
}

/**
 * A draft that deletes its chain, or renames it away, leaves each repo whose default it is naming
 * no chain: a problem of the draft, so it cannot publish until the repo's default changes.
 */
function orphanedRepos(texts: ConfigTexts, key: string, draft: DraftRecord): Problem[] {
  const moved = movedChainFile(key, draft.files);
  const how = moved ? `renames it to \`${moved.slice(7, -5)}\`` : 'deletes it';
  return reposDefaulting(texts, key).map((repo) => ({
    path: repo,
    field: 'default_chain',
    message: `default_chain \`${key}\`: this draft ${how}; change the repo's default chain first`,
    file: 'repos.yaml',
    line: null,
    col: null,
  }));
}

/** The result object of a chains or library draft; `impact` is filled by `chainImpact`. */
export function chainResult(
  area: 'chains' | 'library',
  key: string,
  files: string[],
  draft: DraftRecord | null,
  texts: ConfigTexts,
  published: Record<string, string | null>,
): DraftResultView {
  const core = configResultCore(area, key, files, texts, draft);
  const changes =
    area === 'chains'
      ? chainDraftChanges(key, draft, published, core.model, texts)
      : libraryChangesOf(texts, draft, core.model['library.yaml'] ?? null);
  if (area === 'chains' && draft && draft.files[`chains/${key}.yaml`] === null) {
    core.problems = [...core.problems, ...orphanedRepos(texts, key, draft)];
  }
  return {
    ...core,
    changes,
    impact: null,
    choices: editorChoices(),
    // Ops write over each file's own text and a PUT stores text as typed: no comment is dropped.
    warnings: [],
  };
}

/** What a chains or library publish reaches (items on the chain are read from the store). */
export async function chainImpact(
  db: Db,
  area: 'chains' | 'library',
  key: string,
  texts: ConfigTexts,
  changes: DraftChange[],
): Promise<DraftImpact> {
  if (area === 'chains') {
    return { running: await openItemsOnChain(db, key), repos: reposDefaulting(texts, key) };
  }
  const reached = changes.flatMap((c) => c.reaches ?? []);
  const steering = new Set(changes.filter((c) => c.path.startsWith('steering.')).map((c) => c.path.slice(9)));
  const repos = loadRepos(texts.repos ?? null).model?.repos ?? [];
  return {
    chains: [...new Set(reached)].sort(),
    repos: repos.filter((r) => (r.steering ?? []).some((s) => steering.has(s))).map((r) => r.path),
  };
}
