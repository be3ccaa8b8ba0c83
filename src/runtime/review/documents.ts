import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ItemDocument } from '../../contract/documents.js';
import { JigError } from '../../contract/errors.js';
import type { ItemRecord } from '../../store/work-items.js';
import { readDocument } from '../fs/worktree-document.js';
import { gateOpen } from '../engine/move-guards.js';
import { own } from '../../core/json/own.js';

export const digestOf = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** The document id `POST /api/documents/{id}/open` takes: the item and the kind. */
export const documentId = (item: string, kind: string): string => `${item}.${kind}`;

/** The node whose task `produces` the kind, in the item's frozen chain. */
function producer(rec: ItemRecord, kind: string): string | null {
  for (const node of rec.chain_definition?.nodes ?? []) {
    if (node.kind !== 'exec') continue;
    for (const step of node.steps)
      for (const task of step.tasks) if (task.kind === 'agent' && task.produces === kind) return node.id;
  }
  return null;
}

/** The kind of document the item's pending gate shows, with the gate. */
export function pendingGateDocument(rec: ItemRecord): { gate: string; kind: string } | null {
  const gate = rec.current_node;
  if (!gate || !gateOpen(rec, gate)) return null;
  const node = rec.chain_definition?.nodes.find((n) => n.id === gate);
  return node?.kind === 'gate' && node.artifact ? { gate, kind: node.artifact } : null;
}

/**
 * The item's documents: what tasks wrote (and the attachments copied into the worktree, which
 * stand for them), then attachments not in the worktree (an item not started, or one whose node
 * ran). Each with the digest of its text now.
 */
export function listDocuments(
  rec: ItemRecord,
  attachments: Partial<Record<string, { kind: string; bytes: number; sha256: string }>>,
): ItemDocument[] {
  const pending = pendingGateDocument(rec);
  const docs: ItemDocument[] = [];
  const artifacts = rec.walk?.artifacts ?? {};
  for (const [kind, rel] of Object.entries(artifacts)) {
    const attached = attachments[kind] !== undefined && rel === `.jig/docs/${kind}.md`;
    const read = rec.worktree_path ? readDocument(rec.worktree_path, rel) : null;
    docs.push({
      id: documentId(rec.id, kind),
      kind,
      source: attached ? 'attachment' : 'task',
      node: attached ? null : producer(rec, kind),
      path: rel,
      digest: read?.ok ? digestOf(read.bytes) : null,
      bytes: read?.ok ? read.bytes.length : null,
      gate: pending?.kind === kind ? pending.gate : null,
      problem: read === null ? 'the worktree is gone' : read.ok ? null : `${rel} ${read.detail}`,
    });
  }
  for (const info of Object.values(attachments)) {
    if (!info || info.kind in artifacts) continue;
    docs.push({
      id: documentId(rec.id, info.kind),
      kind: info.kind,
      source: 'attachment',
      node: null,
      path: null,
      digest: info.sha256,
      bytes: info.bytes,
      gate: null,
      problem: null,
    });
  }
  return docs;
}

/** The text of a document a task wrote (or an attachment's worktree copy), read safely. */
export function readArtifact(
  rec: ItemRecord,
  kind: string,
): { kind: string; node: string | null; path: string; text: string; digest: string } {
  // `kind` is the request's: `constructor` must find no document, not Object.prototype's.
  const rel = own(rec.walk?.artifacts, kind);
  if (!rel) throw new JigError('not_found', { what: `a ${kind} document of item ${rec.id}` });
  const root = rec.worktree_path;
  if (!root) throw new JigError('not_found', { what: `the worktree of item ${rec.id}` });
  const doc = readDocument(root, rel);
  if (!doc.ok) throw new JigError('not_found', { what: `the ${kind} document (${rel} ${doc.detail})` });
  return {
    kind,
    node: producer(rec, kind),
    path: join(root, rel),
    text: doc.bytes.toString('utf8'),
    digest: digestOf(doc.bytes),
  };
}
