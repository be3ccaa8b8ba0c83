import { JigError } from '../../contract/errors.js';
import { editorChoices, type Choices } from '../../contract/drafts/choices.js';
import { draftFiles, isDraftArea, keyAccepted, type DraftArea } from '../../contract/drafts/areas.js';
import type { ConfigTexts } from '../../core/config/validate-set.js';
import type { Problem } from '../../contract/problems.js';
import { chainChanges, type Change } from '../../core/drafts/chain-changes.js';
import { movedChainFile, parsedOrNull, parseText, textOf, textsWithDraft } from '../../core/drafts/texts.js';
import { commentWarnings } from '../../core/drafts/comments.js';
import {
  eitherUses,
  libraryChanges,
  libraryUses,
  type LibraryChange,
} from '../../core/drafts/library-changes.js';
import type { Store } from '../../store/database.js';
import {
  dropDraft,
  getDraft,
  popStep,
  recordStep,
  saveDraft,
  type DraftRecord,
  type DraftState,
} from '../../store/drafts.js';
import { stamp, type Clock } from '../clock.js';
import { readConfigDir, sha256Text } from '../config/config-dir.js';
import { loadRepos } from '../../core/config/load-settings.js';
import { openItemsOnChain } from '../../store/item-scans.js';
import { configResultCore, type ConfigResultCore } from './config-result.js';
import { sameAsPublished, withFile } from './draft-files.js';

/** The areas built so far; the settings areas come with their own checks (issue 17). */
export type ConfigArea = Extract<DraftArea, 'chains' | 'library'>;

/** A chains or library draft as the editors read it (the parts of the answer built so far). */
export interface ConfigDraftView {
  area: ConfigArea;
  key: string;
  draft: boolean;
  files: Record<string, string | null>;
  base: Record<string, string | null>;
  published: Record<string, string | null>;
  updated_at: string | null;
  result: ConfigResultCore & {
    changes: DraftChange[];
    impact: DraftImpact | null;
    choices: Choices;
    warnings: { file: string; message: string }[];
  };
}

/** A row of `changes`; a library row also names the chains it reaches. */
export type DraftChange = Change & { reaches?: string[] };

/**
 * What a publish reaches. A chain: items filed on it not yet ended, and repos whose default it is.
 * The library: chains any change reaches, and repos whose `steering:` names a changed entry.
 */
export type DraftImpact = { running: number; repos: string[] } | { chains: string[]; repos: string[] };

export interface ChainDraftsDeps {
  store: Store;
  configDir: string;
  clock: Clock;
}

/** A chain file's mapping without its `id:` (a renamed chain's id is the rename row, not a change). */
function withoutId(doc: unknown): unknown {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return doc;
  return Object.fromEntries(Object.entries(doc).filter(([k]) => k !== 'id'));
}

/** Checks the area and key a route names (spec drafts.md, rule 5). */
export function configArea(area: string, key: string): ConfigArea {
  if (!isDraftArea(area) || (area !== 'chains' && area !== 'library')) {
    throw new JigError('not_found', { what: `draft area ${area}` });
  }
  if (!keyAccepted(area, key)) {
    throw new JigError('bad_request', { reason: `${key} is not a key of the ${area} area` });
  }
  return area;
}

/**
 * The chains and library drafts: reading one, storing a file's text, undoing a step, rebasing and
 * discarding. Each change runs in one transaction with its undo step; the result is computed
 * from the whole config set with the draft laid over it, as a reload would check it.
 */
export class ChainDrafts {
  constructor(private readonly d: ChainDraftsDeps) {}

  get db(): Store['db'] {
    return this.d.store.db;
  }

  get clock(): Clock {
    return this.d.clock;
  }

  published(): ConfigTexts {
    return readConfigDir(this.d.configDir).texts;
  }

  /** The files a draft of this key holds: its own, and any an op joined. */
  filesOf(area: ConfigArea, key: string, draft: DraftState | null): string[] {
    return [...new Set([...draftFiles(area, key), ...Object.keys(draft?.files ?? {})])];
  }

  /** Repos whose default chain is `key` (a repo that names none runs `default`). */
  private reposDefaulting(texts: ConfigTexts, key: string): string[] {
    const repos = loadRepos(texts.repos ?? null).model?.repos ?? [];
    return repos
      .filter((r) => (r.default_chain ?? r.default_chain_template ?? 'default') === key)
      .map((r) => r.path);
  }

  /**
   * A chain draft's changes: its chain against the published file, or, once a rename moved it,
   * one `rename` row at "" and the moved chain against the old file; a library file an op joined
   * (`move_to_library`) adds the library's own rows.
   */
  private chainDraftChanges(
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
      out.push(...this.libraryChangesOf(texts, draft, model['library.yaml'] ?? null));
    }
    return out;
  }

  /** The library's changes, each with the chains it reaches as published or drafted. */
  private libraryChangesOf(texts: ConfigTexts, draft: DraftRecord | null, drafted: unknown): LibraryChange[] {
    const chainsOf = (t: ConfigTexts) =>
      Object.fromEntries(Object.entries(t.chains).map(([id, text]) => [id, parsedOrNull(text)]));
    const overlaid = textsWithDraft(texts, draft?.files ?? {});
    const published = parsedOrNull(texts.library);
    const uses = eitherUses(
      libraryUses(chainsOf(texts), published),
      libraryUses(chainsOf(overlaid), drafted),
    );
    return libraryChanges(published, drafted, uses);
  }

  /**
   * A draft that deletes its chain, or renames it away, leaves each repo whose default it is naming
   * no chain: a problem of the draft, so it cannot publish until the repo's default changes.
   */
  private orphanedRepos(texts: ConfigTexts, key: string, draft: DraftRecord): Problem[] {
    const moved = movedChainFile(key, draft.files);
    const how = moved ? `renames it to \`${moved.slice(7, -5)}\`` : 'deletes it';
    return this.reposDefaulting(texts, key).map((repo) => ({
      path: repo,
      field: 'default_chain',
      message: `default_chain \`${key}\`: this draft ${how}; change the repo's default chain first`,
      file: 'repos.yaml',
      line: null,
      col: null,
    }));
  }

  async impact(
    area: ConfigArea,
    key: string,
    texts: ConfigTexts,
    changes: DraftChange[],
  ): Promise<DraftImpact> {
    if (area === 'chains') {
      return {
        running: await openItemsOnChain(this.d.store.db, key),
        repos: this.reposDefaulting(texts, key),
      };
    }
    const reached = changes.flatMap((c) => c.reaches ?? []);
    const steering = new Set(
      changes.filter((c) => c.path.startsWith('steering.')).map((c) => c.path.slice(9)),
    );
    const repos = loadRepos(texts.repos ?? null).model?.repos ?? [];
    return {
      chains: [...new Set(reached)].sort(),
      repos: repos.filter((r) => (r.steering ?? []).some((s) => steering.has(s))).map((r) => r.path),
    };
  }

  view(
    area: ConfigArea,
    key: string,
    draft: DraftRecord | null,
    texts = this.published(),
    impact: DraftImpact | null = null,
  ): ConfigDraftView {
    const files = this.filesOf(area, key, draft);
    const published = Object.fromEntries(files.map((f) => [f, textOf(texts, f)]));
    const core = configResultCore(area, key, files, texts, draft);
    const changes =
      area === 'chains'
        ? this.chainDraftChanges(key, draft, published, core.model, texts)
        : this.libraryChangesOf(texts, draft, core.model['library.yaml'] ?? null);
    if (area === 'chains' && draft && draft.files[`chains/${key}.yaml`] === null) {
      core.problems = [...core.problems, ...this.orphanedRepos(texts, key, draft)];
    }
    return {
      area,
      key,
      draft: draft !== null,
      files: { ...published, ...(draft?.files ?? {}) },
      base: draft
        ? { ...draft.base }
        : Object.fromEntries(files.map((f) => [f, sha256Text(published[f] ?? null)])),
      published,
      updated_at: draft?.updated_at ?? null,
      result: {
        ...core,
        changes,
        impact,
        choices: editorChoices(),
        warnings: commentWarnings(draft?.rewritten ?? [], published),
      },
    };
  }

  async get(area: ConfigArea, key: string): Promise<ConfigDraftView> {
    const draft = await getDraft(this.d.store.db, area, key);
    const texts = this.published();
    if (!draft && this.filesOf(area, key, null).every((f) => textOf(texts, f) === null)) {
      throw new JigError('not_found', {
        what: `${area === 'chains' ? `chain ${key}` : 'library.yaml'} or a draft of it`,
      });
    }
    return this.answer(area, key, draft, texts);
  }

  /** The draft answer, with what a publish would reach (read after any transaction: one connection). */
  async answer(
    area: ConfigArea,
    key: string,
    draft: DraftRecord | null,
    texts: ConfigTexts,
    seen = this.view(area, key, draft, texts),
  ): Promise<ConfigDraftView> {
    return {
      ...seen,
      result: { ...seen.result, impact: await this.impact(area, key, texts, seen.result.changes) },
    };
  }

  /**
   * Stores one file's text as typed (a text that does not parse is kept, with its yaml error).
   * Text that parses back to the published files drops the draft. Consecutive PUTs to one file less
   * than 4 s apart are one undo step.
   */
  async putFile(area: ConfigArea, key: string, file: string, text: string): Promise<ConfigDraftView> {
    const texts = this.published();
    const record = await this.d.store.db.transaction().execute(async (trx) => {
      const prior = await getDraft(trx, area, key);
      if (!this.filesOf(area, key, prior).includes(file)) {
        throw new JigError('validation_failed', {
          reason: `file: ${file} is not a file of the ${area} draft ${key}`,
        });
      }
      const next = withFile(prior, file, text, textOf(texts, file));
      const published = Object.fromEntries(Object.keys(next.files).map((f) => [f, textOf(texts, f)]));
      if (sameAsPublished(next, published)) {
        await dropDraft(trx, area, key);
        return null;
      }
      const now = stamp(this.d.clock);
      await recordStep(
        trx,
        { area, key, kind: 'put', file, now },
        prior ? { files: prior.files, base: prior.base } : null,
      );
      // A PUT of a file is its text as typed again: comments and all.
      const rewritten = (prior?.rewritten ?? []).filter((f) => f !== file);
      const saved = this.record(area, key, next, prior, now, texts, rewritten);
      await saveDraft(trx, saved.record);
      return saved;
    });
    return record
      ? this.answer(area, key, record.record, texts, record.seen)
      : this.answer(area, key, null, texts);
  }

  /** Takes back the newest step; undoing back to before the first drops the draft. */
  async undo(area: ConfigArea, key: string): Promise<ConfigDraftView | null> {
    const texts = this.published();
    const out = await this.d.store.db.transaction().execute(async (trx) => {
      const prior = await getDraft(trx, area, key);
      const step = await popStep(trx, area, key);
      if (!step) return null;
      if (step.before === null) {
        await dropDraft(trx, area, key);
        return { record: null };
      }
      const saved = this.record(area, key, step.before, prior, stamp(this.d.clock), texts);
      await saveDraft(trx, saved.record);
      return saved;
    });
    if (out === null) return null;
    return 'seen' in out
      ? this.answer(area, key, out.record, texts, out.seen)
      : this.answer(area, key, null, texts);
  }

  /** Takes the published files as the new base, keeping the draft's text; no undo step. */
  async rebase(area: ConfigArea, key: string): Promise<ConfigDraftView | null> {
    const texts = this.published();
    const record = await this.d.store.db.transaction().execute(async (trx) => {
      const prior = await getDraft(trx, area, key);
      if (!prior) return null;
      const base = Object.fromEntries(Object.keys(prior.files).map((f) => [f, sha256Text(textOf(texts, f))]));
      const rebased = this.record(area, key, { files: prior.files, base }, prior, stamp(this.d.clock), texts);
      await saveDraft(trx, rebased.record);
      return rebased;
    });
    return record && this.answer(area, key, record.record, texts, record.seen);
  }

  /** Discards the draft and its undo steps; false when there was none. */
  discard(area: ConfigArea, key: string): Promise<boolean> {
    return dropDraft(this.d.store.db, area, key);
  }

  /**
   * The row to store (the state, what each file last parsed to, the counts the list shows) and the
   * view it was counted from, so an answer does not check the whole config set a second time.
   */
  record(
    area: ConfigArea,
    key: string,
    state: DraftState,
    prior: DraftRecord | null,
    now: string,
    texts: ConfigTexts,
    rewritten: string[] = prior?.rewritten ?? [],
  ): { record: DraftRecord; seen: ConfigDraftView } {
    const last_parsed = { ...prior?.last_parsed };
    for (const [f, t] of Object.entries(state.files)) {
      const v = parseText(t);
      if (v.ok) last_parsed[f] = v.value;
    }
    const draft: DraftRecord = {
      area,
      key,
      ...state,
      last_parsed,
      rewritten: rewritten.filter((f) => f in state.files),
      changes: 0,
      problems: 0,
      updated_at: now,
    };
    const seen = this.view(area, key, draft, texts);
    const record = { ...draft, changes: seen.result.changes.length, problems: seen.result.problems.length };
    return { record, seen: { ...seen, updated_at: record.updated_at } };
  }
}
