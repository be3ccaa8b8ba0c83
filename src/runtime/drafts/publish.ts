import { createTwoFilesPatch } from 'diff';
import { JigError } from '../../contract/errors.js';
import { formatProblem } from '../../contract/problems.js';
import type { ReloadAnswer } from '../../contract/reload.js';
import { textOf } from '../../core/drafts/texts.js';
import { dropDraft, getDraft, type DraftRecord } from '../../store/drafts.js';
import { sha256Text } from '../config/config-dir.js';
import type { ConfigFiles, ConfigWriter } from '../config/config-writer.js';
import type { DraftArea } from '../../contract/drafts/areas.js';
import type { ConfigDrafts, DraftChange, DraftView } from './config-drafts.js';

export interface PublishAnswer {
  published: string[];
  changes: DraftChange[];
  result: DraftView['result'];
}

/**
 * Applies a published draft to the running server (spec drafts.md, "Areas and keys"): the reload
 * its area calls for, given the files written; null when the area applies nothing.
 */
export type ApplyConfig = (area: DraftArea, files: readonly string[]) => ReloadAnswer | null;

/**
 * Publishing a draft (spec drafts.md, "Ending a draft"): checked, stale-checked
 * against the disk, each file written atomically (a reader, or a kill -9, sees old or new text,
 * never half), then applied as its area says. A publish is one operation of the home's config
 * writer, so it runs alone among publishes and every other config save: two racing over one file
 * cannot both pass the stale check, the second sees the first's text.
 */
export class DraftPublisher {
  constructor(
    private readonly drafts: ConfigDrafts,
    private readonly writer: ConfigWriter,
    private readonly applyConfig: ApplyConfig,
  ) {}

  publish(area: DraftArea, key: string): Promise<PublishAnswer> {
    return this.writer.run((files) => this.publishNow(files, area, key));
  }

  private async publishNow(files: ConfigFiles, area: DraftArea, key: string): Promise<PublishAnswer> {
    const draft = await getDraft(this.drafts.db, area, key);
    if (!draft) throw new JigError('not_found', { what: `a ${area} draft of ${key}` });
    const snap = await this.drafts.snapshot(area);
    const { texts } = snap;
    // Stale first: a problem that only a newer file on disk brought is answered with that file's
    // diff (rebase and look), not as the draft's own problem.
    this.refuseStale(draft, (f) => textOf(texts, f));
    const seen = this.drafts.view(area, key, draft, snap);
    const { problems, yaml_error } = seen.result;
    if (yaml_error || problems.length > 0) {
      const first = problems[0];
      const why = yaml_error
        ? `${yaml_error.file} does not parse (line ${yaml_error.line ?? '?'}): ${yaml_error.message}`
        : `${problems.length} problem(s), the first: ${first ? formatProblem(first) : ''}`;
      throw new JigError('draft_has_problems', { reason: `the draft cannot publish: ${why}` }, { problems });
    }
    const published = this.write(files, draft);
    this.apply(area, draft);
    await dropDraft(this.drafts.db, area, key);
    const after = this.drafts.view(area, key, null, await this.drafts.snapshot(area));
    return { published, changes: seen.result.changes, result: after.result };
  }

  /**
   * A file whose text on disk is neither its base nor the draft's own text was changed by someone
   * else since it joined: publishing would overwrite that, so nothing is written. A file already
   * holding the draft's text is a publish that wrote and then failed to apply; it counts as done.
   */
  private refuseStale(draft: DraftRecord, disk: (file: string) => string | null): void {
    const stale = Object.keys(draft.files)
      .sort()
      .filter((f) => {
        const now = disk(f);
        return sha256Text(now) !== (draft.base[f] ?? null) && now !== draft.files[f];
      });
    if (stale.length === 0) return;
    const files = Object.fromEntries(
      stale.map((f) => {
        const published = disk(f);
        const text = draft.files[f] ?? null;
        const diff = createTwoFilesPatch(f, f, published ?? '', text ?? '', 'published', 'draft');
        return [f, { published, draft: text, diff }];
      }),
    );
    throw new JigError('draft_stale', { files: stale.join(', ') }, { files });
  }

  /**
   * Writes every file of the draft (deleted ones removed), each atomically and all as one change: a
   * crash among them puts every one back at the next start (config-journal.ts). They stand before
   * the draft is dropped, so a crash after that keeps both the files and the draft.
   */
  private write(files: ConfigFiles, draft: DraftRecord): string[] {
    const names = Object.keys(draft.files).sort();
    for (const f of names) {
      const text = draft.files[f] ?? null;
      if (text === null) files.remove(f);
      else files.write(f, text);
    }
    files.commit();
    return names;
  }

  /** Applies the area's files; a draft file the reload refuses is an apply that failed. */
  private apply(area: DraftArea, draft: DraftRecord): void {
    let answer: ReloadAnswer | null;
    try {
      answer = this.applyConfig(area, Object.keys(draft.files));
    } catch (e) {
      throw new JigError(
        'draft_apply_failed',
        { reason: e instanceof Error ? e.message : String(e) },
        {},
        { cause: e },
      );
    }
    if (answer === null) return;
    const mine = answer.refused.filter(
      (r) => r.file in draft.files || (r.file === 'library.yaml' && area === 'chains'),
    );
    if (mine.length > 0) {
      const why = mine.map((r) => `${r.file}: ${r.problems.map(formatProblem).join('; ')}`).join(' | ');
      throw new JigError('draft_apply_failed', { reason: `the reload refused ${why}` });
    }
  }
}
