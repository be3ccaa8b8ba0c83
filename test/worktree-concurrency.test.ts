import { afterAll, describe, expect, it } from 'vitest';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { engineSetup, untilEach } from './helpers/engine.js';
import { cleanupAll, http } from './helpers/server.js';

afterAll(cleanupAll);

describe('worktrees of one repository', () => {
  it('items started while others are cancelled each get their worktree (git adds and removes them one at a time)', async () => {
    const { jig, repo } = await engineSetup({ gated: GATED_CHAIN }, { policy: 'max_concurrent: 16\n' });
    const file = (title: string) =>
      http(`${jig.url}/api/work-items`, {
        method: 'POST',
        body: { title, repo, chain: 'gated', start: true },
      });
    const first = await Promise.all(Array.from({ length: 8 }, (_, i) => file(`First ${i}`)));
    await untilEach(
      jig,
      first.map((f) => f.json.id),
      (i) => i.status === 'stopped',
      600,
    );
    // Cancelling removes worktrees while the next eight add theirs.
    const [second] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, (_, i) => file(`Second ${i}`))),
      Promise.all(
        first.map((f) => http(`${jig.url}/api/work-items/${f.json.id}/cancel`, { method: 'POST', body: {} })),
      ),
    ]);
    for (const f of second) expect(f.status, f.text).toBe(201);
    const reached = await untilEach(
      jig,
      second.map((f) => f.json.id),
      (i) => i.status === 'stopped',
      600,
    );
    expect(reached.map((i) => i.stop.kind)).toEqual(Array(8).fill('gate'));
  });
});
