import { stringify } from 'yaml';
import { JigError } from '../../contract/errors.js';
import {
  firstYamlError,
  movedChainFile,
  parseText,
  textOf,
  textsWithDraft,
} from '../../core/drafts/texts.js';
import { parseOps, runOps, OpsRefused } from '../../core/drafts/ops/run.js';
import { Workspace } from '../../core/drafts/ops/workspace.js';
import { chainFileOf } from '../../core/drafts/ops/context.js';
import { fragmentOf } from '../../core/drafts/ops/fragment.js';
import type { ChainOp } from '../../contract/drafts/chain-ops.js';
import type { DraftArea } from '../../contract/drafts/areas.js';
import type { ConfigTexts } from '../../core/config/validate-set.js';
import { validateConfigSet } from '../../core/config/validate-set.js';
import { runSettingsOps } from '../../core/drafts/settings/run.js';
import { SettingsWorkspace } from '../../core/drafts/settings/workspace.js';
import { LayoutRefused } from '../../core/drafts/write-over.js';
import { isObj } from '../../core/drafts/ops/context.js';
import {
  getDraft,
  recordStep,
  saveDraft,
  type Db,
  type DraftRecord,
  type DraftState,
} from '../../store/drafts.js';
import { stamp } from '../clock.js';
import { isSettingsArea, type ConfigDrafts, type DraftView, type Snapshot } from './config-drafts.js';
import { withFile } from './draft-files.js';
import { setOwn } from '../../core/json/own.js';

type OpAnswers = { op: string; result?: unknown }[];
export type OpsView = DraftView & { ops: OpAnswers };

/** What one request's ops changed: the answers, and each changed file's new text. */
interface Ran {
  results: OpAnswers;
  changed: Record<string, string | null>;
}

/** The text each chain `new_chain` copies from holds in its own open draft, if it has one. */
async function draftsCopiedFrom(db: Db, ops: readonly ChainOp[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const op of ops) {
    // `from` is the request's: a chain named `constructor` is looked up like any other.
    if (op.op !== 'new_chain' || op.from === undefined || Object.hasOwn(out, op.from)) continue;
    const other = await getDraft(db, 'chains', op.from);
    const file = chainFileOf(op.from);
    if (other && file in other.files) setOwn(out, op.from, other.files[file] ?? null);
  }
  return out;
}

/**
 * The ops route and the fragment read of every draft area (spec drafts.md, "Changing a draft"):
 * ops apply in order on the documents as the draft has them, all or nothing, stored as one undo
 * step. Every changed file is written over its own text, comments kept. A preview answers the
 * same and saves nothing.
 */
function chainFragment(
  area: DraftArea,
  key: string,
  files: Record<string, string | null>,
  path: string,
): { path: string; text: string } | null {
  const file = area === 'library' ? 'library.yaml' : (movedChainFile(key, files) ?? chainFileOf(key));
  const doc = parseText(files[file] ?? null);
  return doc.ok ? fragmentOf(doc.value, path, area === 'library') : null;
}

/** A repo entry of repos.yaml as YAML, by its path. */
function repoFragment(text: string | null, path: string): { path: string; text: string } | null {
  const doc = parseText(text);
  const repos: unknown[] =
    doc.ok && isObj(doc.value) && Array.isArray(doc.value.repos) ? doc.value.repos : [];
  const entry: unknown = repos.find((r) => isObj(r) && r.path === path);
  return entry === undefined ? null : { path, text: stringify(entry, { lineWidth: 0 }) };
}

export class DraftOps {
  constructor(private readonly drafts: ConfigDrafts) {}

  async apply(
    area: DraftArea,
    key: string,
    raw: readonly { op: string }[],
    preview: boolean,
  ): Promise<OpsView> {
    const settings = isSettingsArea(area);
    const chainOps = settings ? [] : this.parse(raw);
    const snap = await this.drafts.snapshot(area);
    const { texts } = snap;
    const db = this.drafts.db;
    const out = await db.transaction().execute(async (trx) => {
      const prior = await getDraft(trx, area, key);
      const broken = firstYamlError(prior?.files ?? {});
      if (broken) {
        throw new JigError('draft_yaml_error', {
          file: broken.file,
          line: broken.line ?? '?',
          message: broken.message,
        });
      }
      const ran = settings
        ? this.runSettings(area, prior, snap, raw)
        : await this.runChain(trx, area === 'library' ? 'library' : 'chains', key, prior, texts, chainOps);
      const files = Object.keys(ran.changed);
      if (files.length === 0) return { results: ran.results, saved: null, prior };
      let next: DraftState = prior ? { files: prior.files, base: prior.base } : { files: {}, base: {} };
      for (const f of files) next = withFile(next, f, ran.changed[f] ?? null, textOf(texts, f));
      const now = stamp(this.drafts.clock);
      const saved = this.drafts.record(area, key, next, prior, now, snap);
      if (!preview) {
        await recordStep(
          trx,
          { area, key, kind: 'ops', file: null, now },
          prior && { files: prior.files, base: prior.base },
        );
        await saveDraft(trx, saved.record);
      }
      return { results: ran.results, saved, prior };
    });
    const view = out.saved
      ? await this.drafts.answer(area, key, out.saved.record, snap, out.saved.seen)
      : await this.drafts.answer(area, key, out.prior, snap);
    return { ...view, ops: out.results };
  }

  private async runChain(
    trx: Db,
    area: 'chains' | 'library',
    key: string,
    prior: DraftRecord | null,
    texts: ConfigTexts,
    ops: readonly ChainOp[],
  ): Promise<Ran> {
    const added = Object.entries(prior?.files ?? {})
      .filter(([f, t]) => t !== null && textOf(texts, f) === null)
      .map(([f]) => f);
    const ws = new Workspace(
      area,
      key,
      textsWithDraft(texts, prior?.files ?? {}),
      added,
      prior !== null,
      await draftsCopiedFrom(trx, ops),
    );
    const results = this.run(() => runOps(ws, ops));
    return { results, changed: this.written(() => ws.changedTexts()) };
  }

  /** A settings draft's ops: on plain documents, each changed one written over its own text. */
  private runSettings(
    area: DraftArea,
    prior: DraftRecord | null,
    snap: Snapshot,
    raw: readonly { op: string }[],
  ): Ran {
    if (!isSettingsArea(area) || !snap.facts) throw new Error(`${area} is not a settings area`);
    const overlaid = textsWithDraft(snap.texts, prior?.files ?? {});
    const ws = new SettingsWorkspace(
      area,
      overlaid,
      () => validateConfigSet(overlaid),
      snap.facts.forTexts(overlaid),
    );
    const results = this.run(() => runSettingsOps(area, ws, raw));
    return { results, changed: this.written(() => ws.changedTexts()) };
  }

  /** The changed files' texts, or the refusal when a file's layout cannot take the change. */
  private written<T>(texts: () => T): T {
    try {
      return texts();
    } catch (e) {
      if (!(e instanceof LayoutRefused)) throw e;
      throw new JigError(
        'draft_op_refused',
        { reason: `the file's layout cannot take this change: ${e.message}` },
        { op: null },
      );
    }
  }

  /**
   * YAML of the component at `path`, from the draft when open, else the published file. On a repos
   * draft `path` is a repo's path and the entry is answered read-only; the other settings areas
   * have no fragments.
   */
  async fragment(
    area: DraftArea,
    key: string,
    path: string | undefined,
  ): Promise<{ path: string; text: string }> {
    if (path === undefined || path === '') {
      throw new JigError('bad_request', {
        reason: 'path: send the component path (`?path=spec.main.author`)',
      });
    }
    if (isSettingsArea(area) && area !== 'repos') {
      throw new JigError('not_found', { what: `a fragment in the ${area} area (it has none)` });
    }
    // Only the files are needed: no check of the config set, as a full draft answer would run.
    const draft = await getDraft(this.drafts.db, area, key);
    const texts = this.drafts.published();
    const files: Record<string, string | null> = {
      ...Object.fromEntries(this.drafts.filesOf(area, key, draft).map((f) => [f, textOf(texts, f)])),
      ...draft?.files,
    };
    const found =
      area === 'repos'
        ? repoFragment(files['repos.yaml'] ?? null, path)
        : chainFragment(area, key, files, path);
    if (!found) throw new JigError('not_found', { what: `a component at path ${path}` });
    return found;
  }

  private parse(raw: readonly { op: string }[]): ChainOp[] {
    try {
      return parseOps(raw);
    } catch (e) {
      throw this.refusal(e);
    }
  }

  private run(ops: () => OpAnswers): OpAnswers {
    try {
      return ops();
    } catch (e) {
      throw this.refusal(e);
    }
  }

  private refusal(e: unknown): unknown {
    if (!(e instanceof OpsRefused)) return e;
    return new JigError('draft_op_refused', { reason: e.detail }, { ...e.extra, op: e.op });
  }
}
