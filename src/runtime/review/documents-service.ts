import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ItemDocument } from '../../contract/documents.js';
import { JigError } from '../../contract/errors.js';
import { AttachmentKind, type WorkItem } from '../../contract/items.js';
import type { ItemRecord } from '../../store/work-items.js';
import { listDocuments, pendingGateDocument, readArtifact } from './documents.js';
import { openInEditor } from './editors.js';
import { own } from '../../core/json/own.js';

/** An item's documents: listed with digests, read, and opened in an editor on this machine. */
export class DocumentsService {
  constructor(
    private readonly d: {
      record: (id: string) => Promise<ItemRecord>;
      dto: (rec: ItemRecord) => WorkItem;
      attachmentText: (id: string, kind: AttachmentKind) => Promise<string>;
      /** Where an attachment not in any worktree is copied to be opened. */
      docsDir: string;
    },
  ) {}

  async list(id: string): Promise<{ documents: ItemDocument[] }> {
    const rec = await this.d.record(id);
    return { documents: listDocuments(rec, this.d.dto(rec).attachments) };
  }

  async read(id: string, kind: string) {
    return readArtifact(await this.d.record(id), kind);
  }

  /** Opens one of the item's documents; an attachment outside the worktree opens as a copy. */
  async open(id: string, kind: string, editor: string | undefined) {
    const rec = await this.d.record(id);
    if (own(rec.walk?.artifacts, kind)) return openInEditor(readArtifact(rec, kind).path, editor);
    const parsed = AttachmentKind.safeParse(kind);
    if (!parsed.success || !Object.hasOwn(this.d.dto(rec).attachments, kind))
      throw new JigError('not_found', { what: `a ${kind} document of item ${id}` });
    const text = await this.d.attachmentText(id, parsed.data);
    mkdirSync(this.d.docsDir, { recursive: true, mode: 0o700 });
    const copy = join(this.d.docsDir, `${id}-${kind}.md`);
    writeFileSync(copy, text, { mode: 0o600 });
    return openInEditor(copy, editor);
  }

  /** `POST /api/documents/{id}/open`: the id is `<item>.<kind>`, as the documents list names it. */
  async openById(docId: string, editor: string | undefined) {
    const m = /^([^.]+)\.([A-Za-z0-9_-]+)$/.exec(docId);
    if (!m?.[1] || !m[2]) throw new JigError('not_found', { what: `document ${docId}` });
    return this.open(m[1], m[2], editor);
  }

  async openPending(id: string, editor: string | undefined) {
    const rec = await this.d.record(id);
    const pending = pendingGateDocument(rec);
    if (!pending) throw new JigError('not_found', { what: 'a pending gate with a document' });
    return this.open(id, pending.kind, editor);
  }

  async openWorktree(id: string, editor: string | undefined) {
    const rec = await this.d.record(id);
    if (!rec.worktree_path) throw new JigError('item_not_started', {});
    return openInEditor(rec.worktree_path, editor);
  }
}
