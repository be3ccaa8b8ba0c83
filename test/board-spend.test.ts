import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { agentSetup, sessions } from './helpers/agents.js';
import { fileItem, until } from './helpers/engine.js';
import { cleanupAll, type JigProcess } from './helpers/server.js';

/*
 * A task's spend on the item page: a CLI that reports its cost shows dollars (and the tool calls
 * its stream showed); one Jig cannot price (Cursor: its `auto` model is in no price table) shows
 * "unpriced" and why, never $0.
 */

const CHAIN = `
nodes:
  - id: write
    kind: exec
    tasks:
      - id: claude
        kind: agent
        harness: claude
        prompt: Add a file.
  - id: check
    kind: exec
    tasks:
      - id: cursor
        kind: agent
        harness: cursor
        prompt: Change it again.
`;

let jig: JigProcess;
let repo: string;
let s: Session;

beforeAll(async () => {
  if (noChromium) return;
  ({ jig, repo } = await agentSetup({ spend: CHAIN }));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `spend on the item page in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('shows reported dollars and tool calls for one CLI, and "unpriced" with its reason for one Jig cannot price', async () => {
      const item = await fileItem(jig, repo, 'spend');
      const done = await until(jig, item.id, (i) => ['completed', 'stopped'].includes(i.status));
      expect(done.status, JSON.stringify(done.stop)).toBe('completed');
      const [claude, cursor] = await sessions(jig, item.id);
      expect(claude).toMatchObject({ harness: 'claude', cost_source: 'reported' });
      expect(cursor).toMatchObject({ harness: 'cursor', cost_source: null, cost_usd: null });

      const { page } = s;
      const agentRow = async (node: string, task: string) => {
        await page.goto(`${jig.url}/work-items/${item.id}/nodes/${node}`);
        const inspector = page.getByRole('complementary', { name: `Node ${node}` });
        await inspector.getByRole('button', { name: `Task ${task}` }).click();
        const view = inspector.getByRole('region', { name: `Task ${task}` });
        return view.locator('dt', { hasText: 'Agent' }).locator('xpath=following-sibling::dd[1]');
      };
      const paid = await agentRow('write', 'write.main.claude');
      const calls = claude.readout.tool_calls as number;
      const callText = calls > 0 ? ` · ${calls} tool call${calls === 1 ? '' : 's'}` : '';
      expect(await paid.innerText()).toBe(
        `claude · ${claude.model ?? 'default model'} · ${claude.tokens.input + claude.tokens.output} tokens${callText} · $${claude.cost_usd.toFixed(4)}`,
      );
      await shot(page, 'spend-reported');
      const unpriced = await agentRow('check', 'check.main.cursor');
      // Unpriced says why: no usage at all, or tokens of a model the price table lacks ('auto').
      const t = cursor.tokens;
      const counted = t.input + t.output + t.cache_read + t.cache_write;
      const why = counted > 0 ? 'its model is not in the price table' : 'the CLI reported no usage';
      expect(await unpriced.innerText()).toBe(
        `cursor · ${cursor.model ?? 'default model'} · ${t.input + t.output} tokens · unpriced (${why})`,
      );
      // The item's spend says a run has no figure, so $0.00 is not read as free.
      expect(await page.locator('.item-meta').innerText()).toContain(
        `spent $${done.spent_usd.toFixed(2)} of $${done.budget_cap.cap_usd.toFixed(2)} + 1 unpriced run`,
      );
      await shot(page, 'spend-unpriced');
    });
  },
);
