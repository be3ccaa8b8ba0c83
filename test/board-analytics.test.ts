import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { until } from './helpers/engine.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * The Analytics page (docs/board/draft.md): an item of a chain with a Claude agent (cost reported),
 * a Codex agent (cost estimated from the price table) and a command runs to the end; the page
 * shows its spend per node, repository and model, the same figures GET /api/analytics answers.
 */

const CHAIN = `
nodes:
  - id: write
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        prompt: Write it.
  - id: check
    kind: exec
    tasks:
      - id: look
        kind: agent
        harness: codex
        model: gpt-5-codex
        prompt: Check it.
  - id: run
    kind: exec
    tasks:
      - id: cmd
        kind: subprocess
        run: 'true'
`;

let jig: JigProcess;
let repo: string;
let s: Session;
let item: any;

beforeAll(async () => {
  if (noChromium) return;
  ({ jig, repo } = await agentSetup({ three: CHAIN }));
  const r = await http(`${jig.url}/api/work-items`, {
    method: 'POST',
    body: { title: 'Spend some', repo, chain: 'three', start: true },
  });
  expect(r.status, r.text).toBe(201);
  item = await until(jig, r.json.id, (i) => i.status === 'completed');
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

/** The page's dollars: cents, or four places under a dollar. */
const usd = (n: number) => (n === 0 ? '$0.00' : Math.abs(n) < 1 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`);

/** The rows of a table as the user reads them: each cell's text. */
async function cells(page: Session['page'], table: string): Promise<string[][]> {
  const rows = await page.getByRole('table', { name: table }).locator('tbody tr').all();
  return Promise.all(rows.map(async (r) => (await r.locator('th, td').allInnerTexts()).map((t) => t.trim())));
}

describe.skipIf(noChromium !== null)(
  `the analytics page in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('shows the spend of a finished item per node, repository and model, as the API answers it', async () => {
      const page = s.page;
      await page.goto(`${jig.url}/analytics`);
      await page.getByRole('heading', { name: 'Analytics' }).waitFor();

      const byNode = (await http(`${jig.url}/api/analytics?group_by=node`)).json;
      expect(byNode.rows.map((r: any) => r.key).sort()).toEqual(['check', 'run', 'write']);
      expect(byNode.totals.cost_usd).toBe(item.spent_usd);
      expect(item.spent_usd).toBeGreaterThan(0);
      await page.getByRole('table', { name: 'Spend by node' }).waitFor();
      const nodeRows = await cells(page, 'Spend by node');
      expect(nodeRows.map((r) => r.slice(0, 4))).toEqual(
        byNode.rows.map((r: any) => [
          r.key,
          usd(r.cost_usd),
          usd(r.cost_reported_usd),
          usd(r.cost_estimated_usd),
        ]),
      );
      await page.getByLabel('Totals').getByText(usd(item.spent_usd), { exact: true }).waitFor();
      await page.getByRole('img', { name: 'Cost by node' }).waitFor();
      await page.getByRole('img', { name: 'Tokens by node' }).waitFor();
      expect(await cells(page, 'How nodes ended')).toEqual(
        byNode.nodes.map((n: any) => [
          n.node,
          String(n.runs),
          String(n.completed),
          String(n.stopped),
          `${Math.round(n.success_rate * 100)}%`,
        ]),
      );
      await shot(page, 'analytics');

      await page.getByRole('tab', { name: 'Repository' }).click();
      const byRepo = (await http(`${jig.url}/api/analytics?group_by=repo`)).json;
      expect(byRepo.rows.map((r: any) => [r.key, r.cost_usd])).toEqual([[repo, item.spent_usd]]);
      await page.getByRole('table', { name: 'Spend by repository' }).waitFor();
      expect((await cells(page, 'Spend by repository')).map((r) => r.slice(0, 2))).toEqual([
        [repo, usd(item.spent_usd)],
      ]);
      expect(page.url()).toContain('group_by=repo');

      await page.getByRole('tab', { name: 'Model' }).click();
      const byModel = (await http(`${jig.url}/api/analytics?group_by=model`)).json;
      expect(byModel.rows.map((r: any) => r.key)).toContain('gpt-5-codex');
      await page.getByRole('table', { name: 'Spend by model' }).waitFor();
      expect((await cells(page, 'Spend by model')).map((r) => r.slice(0, 2))).toEqual(
        byModel.rows.map((r: any) => [r.key, usd(r.cost_usd)]),
      );
      await shot(page, 'analytics-model');
      // On a phone the charts stack and the wide table scrolls inside its own box.
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'analytics-phone');
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 800 });

      // A range with nothing in it says so; a range the server refuses shows its reason.
      await page.getByLabel('From', { exact: true }).fill('2020-01-01');
      await page.getByLabel('To', { exact: true }).fill('2020-01-31');
      await page.getByText('No session started in this range.').waitFor();
      await page.getByLabel('From', { exact: true }).fill('2020-02-01');
      await page.getByRole('alert').waitFor();
      const refused = await http(`${jig.url}/api/analytics?group_by=model&from=2020-02-01&to=2020-01-31`);
      expect(refused.status).toBe(422);
      expect(await page.getByRole('alert').textContent()).toBe(refused.json.detail);
    });

    it('logged no console errors and asked no other host for anything', () => {
      // The refused range above is the route's documented 422, asked on purpose.
      expect(s.problems.filter((p) => !/status of 422 .*\/api\/analytics\?/.test(p))).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
