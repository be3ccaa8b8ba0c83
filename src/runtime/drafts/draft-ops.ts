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
import { getDraft, recordStep, saveDraft, type Db, type DraftState } from '../../store/drafts.js';
import { stamp } from '../clock.js';
import type { ChainDrafts, ConfigArea, ConfigDraftView } from './chain-drafts.js';
import { withFile } from './draft-files.js';

export type OpsView = ConfigDraftView & { ops: { op: string; result?: unknown }[] };

/** The text each chain `new_chain` copies from holds in its own open draft, if it has one. */
async function draftsCopiedFrom(db: Db, ops: readonly ChainOp[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const op of ops) {
    if (op.op !== 'new_chain' || op.from === undefined || op.from in out) continue;
    const other = await getDraft(db, 'chains', op.from);
    const file = chainFileOf(op.from);
    if (other && file in other.files) out[op.from] = other.files[file] ?? null;
  }
  return out;
}

/**
 * The ops route and the fragment read of a chains or library draft (spec drafts.md, "Changing a
 * draft"): ops apply in order on the documents as the draft has them, all or nothing; the files
 * they changed are written back whole and stored as one undo step. A preview answers the same
 * and saves nothing.
 */
export class DraftOps {
  constructor(private readonly drafts: ChainDrafts) {}

  async apply(
    area: ConfigArea,
    key: string,
    raw: readonly { op: string }[],
    preview: boolean,
  ): Promise<OpsView> {
    const ops = this.parse(raw);
    const texts = this.drafts.published();
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
      const results = this.run(ws, ops);
      const changed = ws.changedTexts();
      const files = Object.keys(changed);
      if (files.length === 0) return { results, saved: null, prior };
      let next: DraftState = prior ? { files: prior.files, base: prior.base } : { files: {}, base: {} };
      for (const f of files) next = withFile(next, f, changed[f] ?? null, textOf(texts, f));
      const now = stamp(this.drafts.clock);
      // Ops write a file back whole: its comments are gone until a PUT of it brings text back.
      const rewritten = [...new Set([...(prior?.rewritten ?? []), ...files])];
      const saved = this.drafts.record(area, key, next, prior, now, texts, rewritten);
      if (!preview) {
        await recordStep(
          trx,
          { area, key, kind: 'ops', file: null, now },
          prior && { files: prior.files, base: prior.base },
        );
        await saveDraft(trx, saved.record);
      }
      return { results, saved, prior };
    });
    const view = out.saved
      ? await this.drafts.answer(area, key, out.saved.record, texts, out.saved.seen)
      : await this.drafts.answer(area, key, out.prior, texts);
    return { ...view, ops: out.results };
  }

  /** YAML of the component at `path`, from the draft when open, else the published file. */
  async fragment(
    area: ConfigArea,
    key: string,
    path: string | undefined,
  ): Promise<{ path: string; text: string }> {
    if (path === undefined || path === '') {
      throw new JigError('bad_request', {
        reason: 'path: send the component path (`?path=spec.main.author`)',
      });
    }
    // Only the files are needed: no check of the config set, as a full draft answer would run.
    const draft = await getDraft(this.drafts.db, area, key);
    const texts = this.drafts.published();
    const files: Record<string, string | null> = {
      ...Object.fromEntries(this.drafts.filesOf(area, key, draft).map((f) => [f, textOf(texts, f)])),
      ...draft?.files,
    };
    const file = area === 'library' ? 'library.yaml' : (movedChainFile(key, files) ?? chainFileOf(key));
    const doc = parseText(files[file] ?? null);
    const found = doc.ok ? fragmentOf(doc.value, path, area === 'library') : null;
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

  private run(ws: Workspace, ops: readonly ChainOp[]): { op: string; result?: unknown }[] {
    try {
      return runOps(ws, ops);
    } catch (e) {
      throw this.refusal(e);
    }
  }

  private refusal(e: unknown): unknown {
    if (!(e instanceof OpsRefused)) return e;
    return new JigError('draft_op_refused', { reason: e.detail }, { ...e.extra, op: e.op });
  }
}
