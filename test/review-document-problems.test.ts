import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigDocumentSetup } from './helpers/big-document.js';
import { fileItem, post, until } from './helpers/engine.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * Issue 40, point 4: a gate's document that Jig will not read (over the 10 MiB cap) was dropped:
 * absent from the documents, "no document" on the board, and the gate approved. It is listed with
 * its problem now, and approving the gate that shows it is refused like a missing one.
 */

let jig: JigProcess;
let repo: string;

beforeAll(async () => {
  ({ jig, repo } = await bigDocumentSetup());
});
afterAll(cleanupAll);

describe('a gate document that cannot be read', () => {
  it('is listed with its problem, and the gate that shows it is not approved', async () => {
    const item = await fileItem(jig, repo, 'big');
    const atGate = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued', 600);
    expect([atGate.status, atGate.stop?.kind, atGate.current_node], JSON.stringify(atGate.stop)).toEqual([
      'stopped',
      'gate',
      'review',
    ]);
    const docs = await http(`${jig.url}/api/work-items/${item.id}/documents`);
    expect(docs.status).toBe(200);
    expect(docs.json.documents).toEqual([
      {
        id: `${item.id}.spec`,
        kind: 'spec',
        source: 'task',
        node: 'write',
        path: '.jig/docs/spec.md',
        digest: null,
        bytes: null,
        gate: 'review',
        problem: '.jig/docs/spec.md is larger than 10485760 bytes',
      },
    ]);
    const artifact = await http(`${jig.url}/api/work-items/${item.id}/artifact`);
    expect([artifact.status, artifact.json.detail]).toEqual([
      404,
      'the document of gate review (.jig/docs/spec.md is larger than 10485760 bytes) not found',
    ]);
    const approve = await post(jig, `/api/work-items/${item.id}/gates/review/approve`, {
      request: atGate.gate_request,
    });
    expect([approve.status, approve.json]).toEqual([
      422,
      {
        code: 'artifact_required',
        detail:
          'gate review needs its spec document, readable, before it can be approved: .jig/docs/spec.md is larger than 10485760 bytes',
      },
    ]);
    const review = await post(jig, `/api/work-items/${item.id}/review`, { outcome: 'approve' });
    expect([review.status, review.json.code]).toEqual([422, 'artifact_required']);
    // Nothing was approved: the item still waits on the same request.
    const now = (await http(`${jig.url}/api/work-items/${item.id}`)).json;
    expect([now.status, now.gate_request]).toEqual(['stopped', atGate.gate_request]);
    // A rejection is still possible: the document is written again.
    const reject = await post(jig, `/api/work-items/${item.id}/gates/review/reject`, {
      note: 'keep it short',
      request: atGate.gate_request,
    });
    expect(reject.status).toBe(200);
    await post(jig, `/api/work-items/${item.id}/cancel`, { reason: 'done' });
  });
});
