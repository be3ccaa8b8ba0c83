import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineSetup, fileItem, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/* Issue 15's honesty fixes: answers that said something the server did not do. */

const slow = `
nodes:
  - id: work
    kind: exec
    tasks:
      - id: sleep
        kind: subprocess
        run: sleep 30
`;

let jig: JigProcess;
let repo: string;
beforeAll(async () => {
  ({ jig, repo } = await engineSetup({ slow }));
});
afterAll(cleanupAll);

describe('what the answers say', () => {
  it('cancel-preview counts the sessions a cancel would stop, and the cancel stops them', async () => {
    const item = await fileItem(jig, repo, 'slow', true);
    const sessions = async () => (await http(`${jig.url}/api/work-items/${item.id}/sessions`)).json.sessions;
    await until(jig, item.id, () => true);
    const running = async () => (await sessions()).some((s: any) => s.status === 'running');
    await eventually(running, { what: 'a running session' });
    const preview = await http(`${jig.url}/api/work-items/${item.id}/cancel-preview`);
    expect(preview.status).toBe(200);
    expect(preview.json).toMatchObject({ status: 'running', allowed: true, sessions_to_stop: 1 });
    expect((await post(jig, `/api/work-items/${item.id}/cancel`)).status).toBe(200);
    await eventually(async () => !(await running()), { what: 'no running session', everyMs: 50 });
    expect((await sessions()).map((s: any) => s.status)).not.toContain('running');
    const after = (await http(`${jig.url}/api/work-items/${item.id}/cancel-preview`)).json;
    expect(after).toMatchObject({ status: 'cancelled', allowed: true, sessions_to_stop: 0 });
  });

  it('lists only statuses an item can have', async () => {
    for (const status of ['needs_you', 'rate_limited']) {
      const r = await http(`${jig.url}/api/work-items?status=${status}`);
      expect(r.status).toBe(422);
      expect(r.json.detail).toBe(
        `query.status: ${status} is not one of paused, blocked, queued, running, stopped, waiting, completed, cancelled, abandoned`,
      );
    }
  });
});
