import type { z } from 'zod';
import { JigError } from '../../contract/errors.js';
import {
  draftFiles,
  isDraftArea,
  keyAccepted,
  settingsAreas,
  type DraftArea,
} from '../../contract/drafts/areas.js';
import type { DraftListAnswer } from '../../contract/drafts/answers.js';
import type { ConfigTexts } from '../../core/config/validate-set.js';
import type { SettingsAreaName } from '../../core/drafts/settings/docs.js';
import { parseText, textOf } from '../../core/drafts/texts.js';
import type { Store } from '../../store/database.js';
import {
  dropDraft,
  getDraft,
  listDrafts,
  popStep,
  recordStep,
  saveDraft,
  type DraftRecord,
  type DraftState,
} from '../../store/drafts.js';
import { stamp, type Clock } from '../clock.js';
import { LastValidated, readConfigDir, sha256Text } from '../config/config-dir.js';
import { chainImpact, chainResult } from './chain-view.js';
import { sameAsPublished, withFile } from './draft-files.js';
import { settingsFacts } from './settings-facts.js';
import { settingsResult } from './settings-view.js';
import type { DraftView, Snapshot } from './view.js';

export type { DraftChange, DraftImpact, DraftView, Snapshot } from './view.js';

export interface ConfigDraftsDeps {
  store: Store;
  configDir: string;
  /** The add-on content store, so drafts resolve `<namespace>:<name>` (null or absent: none). */
  addonsDir?: string | null;
  clock: Clock;
}

export const isSettingsArea = (area: DraftArea): area is SettingsAreaName =>
  settingsAreas.some((a) => a === area);

/** Checks the area and key a route names (spec drafts.md, rule 5). */
export function configArea(area: string, key: string): DraftArea {
  if (!isDraftArea(area)) throw new JigError('not_found', { what: `draft area ${area}` });
  if (!keyAccepted(area, key)) {
    throw new JigError('bad_request', { reason: `${key} is not a key of the ${area} area` });
  }
  return area;
}

/**
 * The config drafts of every area: reading one, storing a file's text, undoing a step, rebasing
 * and discarding. Each change runs in one transaction with its undo step; the result is computed
 * from the whole config set with the draft laid over it, as a reload would check it.
 */
export class ConfigDrafts {
  constructor(private readonly d: ConfigDraftsDeps) {}

  get db(): Store['db'] {
    return this.d.store.db;
  }

  get clock(): Clock {
    return this.d.clock;
  }

  published(): ConfigTexts {
    return readConfigDir(this.d.configDir, this.d.addonsDir ?? null).texts;
  }

  /** A policy or harnesses draft compares its set with the published one at every request. */
  private readonly validated = new LastValidated();

  /** The published files, and for a settings area the machine's facts, read once per request. */
  async snapshot(area: DraftArea): Promise<Snapshot> {
    const read = readConfigDir(this.d.configDir, this.d.addonsDir ?? null);
    return {
      texts: read.texts,
      set: () => this.validated.of(read),
      facts: isSettingsArea(area) ? await settingsFacts(this.d.store.db, this.d.configDir) : null,
    };
  }

  /** The files a draft of this key holds: its own, and any an op joined. */
  filesOf(area: DraftArea, key: string, draft: DraftState | null): string[] {
    return [...new Set([...draftFiles(area, key), ...Object.keys(draft?.files ?? {})])];
  }

  view(area: DraftArea, key: string, draft: DraftRecord | null, snap: Snapshot): DraftView {
    const { texts } = snap;
    const files = this.filesOf(area, key, draft);
    const published = Object.fromEntries(files.map((f) => [f, textOf(texts, f)]));
    const result =
      isSettingsArea(area) && snap.facts
        ? settingsResult(area, files, draft, snap, published, snap.facts)
        : chainResult(area === 'library' ? 'library' : 'chains', key, files, draft, texts, published);
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
      result,
    };
  }

  /** Every open draft in short: its area and key, files, changes, problems and last write. */
  async list(): Promise<z.infer<typeof DraftListAnswer>> {
    const rows = await listDrafts(this.d.store.db);
    return rows.flatMap((d) =>
      isDraftArea(d.area)
        ? [
            {
              area: d.area,
              key: d.key,
              files: Object.keys(d.files).sort(),
              changes: d.changes,
              problems: d.problems,
              updated_at: d.updated_at,
            },
          ]
        : [],
    );
  }

  async get(area: DraftArea, key: string): Promise<DraftView> {
    const draft = await getDraft(this.d.store.db, area, key);
    const snap = await this.snapshot(area);
    // A settings area answers for a file not there yet: its editor starts from nothing.
    if (
      !draft &&
      !isSettingsArea(area) &&
      this.filesOf(area, key, null).every((f) => textOf(snap.texts, f) === null)
    ) {
      throw new JigError('not_found', {
        what: `${area === 'chains' ? `chain ${key}` : 'library.yaml'} or a draft of it`,
      });
    }
    return this.answer(area, key, draft, snap);
  }

  /** The draft answer, with what a publish would reach (read after any transaction: one connection). */
  async answer(
    area: DraftArea,
    key: string,
    draft: DraftRecord | null,
    snap: Snapshot,
    seen = this.view(area, key, draft, snap),
  ): Promise<DraftView> {
    if (isSettingsArea(area)) return seen;
    const own = area === 'library' ? 'library' : 'chains';
    const impact = await chainImpact(this.d.store.db, own, key, snap.texts, seen.result.changes);
    return { ...seen, result: { ...seen.result, impact } };
  }

  /**
   * Stores one file's text as typed (a text that does not parse is kept, with its yaml error).
   * Text that parses back to the published files drops the draft. Consecutive PUTs to one file less
   * than 4 s apart are one undo step.
   */
  async putFile(area: DraftArea, key: string, file: string, text: string): Promise<DraftView> {
    const snap = await this.snapshot(area);
    const { texts } = snap;
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
      const saved = this.record(area, key, next, prior, now, snap);
      await saveDraft(trx, saved.record);
      return saved;
    });
    return record
      ? this.answer(area, key, record.record, snap, record.seen)
      : this.answer(area, key, null, snap);
  }

  /** Takes back the newest step; undoing back to before the first drops the draft. */
  async undo(area: DraftArea, key: string): Promise<DraftView | null> {
    const snap = await this.snapshot(area);
    const out = await this.d.store.db.transaction().execute(async (trx) => {
      const prior = await getDraft(trx, area, key);
      const step = await popStep(trx, area, key);
      if (!step) return null;
      if (step.before === null) {
        await dropDraft(trx, area, key);
        return { record: null };
      }
      const saved = this.record(area, key, step.before, prior, stamp(this.d.clock), snap);
      await saveDraft(trx, saved.record);
      return saved;
    });
    if (out === null) return null;
    return 'seen' in out
      ? this.answer(area, key, out.record, snap, out.seen)
      : this.answer(area, key, null, snap);
  }

  /** Takes the published files as the new base, keeping the draft's text; no undo step. */
  async rebase(area: DraftArea, key: string): Promise<DraftView | null> {
    const snap = await this.snapshot(area);
    const record = await this.d.store.db.transaction().execute(async (trx) => {
      const prior = await getDraft(trx, area, key);
      if (!prior) return null;
      const base = Object.fromEntries(
        Object.keys(prior.files).map((f) => [f, sha256Text(textOf(snap.texts, f))]),
      );
      const rebased = this.record(area, key, { files: prior.files, base }, prior, stamp(this.d.clock), snap);
      await saveDraft(trx, rebased.record);
      return rebased;
    });
    return record && this.answer(area, key, record.record, snap, record.seen);
  }

  /** Discards the draft and its undo steps; false when there was none. */
  discard(area: DraftArea, key: string): Promise<boolean> {
    return dropDraft(this.d.store.db, area, key);
  }

  /**
   * The row to store (the state, what each file last parsed to, the counts the list shows) and the
   * view it was counted from, so an answer does not check the whole config set a second time.
   */
  record(
    area: DraftArea,
    key: string,
    state: DraftState,
    prior: DraftRecord | null,
    now: string,
    snap: Snapshot,
  ): { record: DraftRecord; seen: DraftView } {
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
      changes: 0,
      problems: 0,
      updated_at: now,
    };
    const seen = this.view(area, key, draft, snap);
    const record = { ...draft, changes: seen.result.changes.length, problems: seen.result.problems.length };
    return { record, seen: { ...seen, updated_at: record.updated_at } };
  }
}
