import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, shot, SHOTS, type Session } from './helpers/browser.js';
import { shippingChain } from './helpers/chain-tests.js';
import { cleanupAll, type JigProcess } from './helpers/server.js';

/*
 * Test before publishing (docs/chain-tests.md, "In the chain editor"): a draft of the shipping chain
 * (its gate renamed) tested from Review & publish with the starter script, one answer edited, and
 * the report the real chain test answered drawn: the path through the renamed gate, the session,
 * what it spent, the expectation.
 */

let jig: JigProcess;
let s: Session;

beforeAll(async () => {
  if (noChromium) return;
  ({ jig } = await agentSetup({ shipping: shippingChain }));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

describe.skipIf(noChromium !== null)(
  `testing a chain from its editor in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('runs a chain test of the draft from Review & publish and shows the path it took', async () => {
      const { page } = s;
      await page.goto(`${jig.url}/templates/chains/shipping`);
      await page.getByText('published, no draft').waitFor();

      // A draft: the gate renamed in the YAML view, so only the draft reaches `release`.
      await page.getByRole('button', { name: 'YAML', exact: true }).click();
      const yaml = page.getByLabel('Text of chains/shipping.yaml');
      await yaml.fill(shippingChain.replace('id: ship\n', 'id: release\n'));
      await page.getByRole('button', { name: 'Save YAML' }).click();
      await page.getByText(/^draft · \d+ changes? · 0 problems$/).waitFor();
      await page.getByRole('button', { name: 'Review & publish' }).click();
      await shot(page, 'chain-test-review');

      const panel = page.getByRole('region', { name: 'Test before publishing' });
      const script = panel.getByLabel('Script (YAML or JSON)');
      const starter = await script.inputValue();
      expect(starter).toContain(
        'tasks:\n  build.main.code: {}\ngates:\n  release: approve\nexpect:\n  completes: true\n',
      );
      // One connected repository: no picker, the server takes it.
      expect(await panel.getByLabel('Repository').count()).toBe(0);

      await script.fill(
        starter
          .replace('build.main.code: {}', 'build.main.code: {files: {feature.txt: "v1\\n"}, cost_usd: 0.25}')
          .replace(
            '  completes: true\n',
            '  completes: true\n  reaches: [build, release]\n  spent_below: 1\n',
          ),
      );
      await panel.getByRole('button', { name: 'Run test' }).click();
      await panel.getByRole('button', { name: 'Running…' }).waitFor();
      expect(await panel.getByRole('button', { name: 'Running…' }).isDisabled()).toBe(true);
      await panel.getByRole('status').waitFor();
      await shot(page, 'chain-test-running');

      const report = panel.getByRole('region', { name: 'Test report' });
      await report.waitFor({ timeout: 180_000 });
      expect(await report.locator('.ce-test-verdict').textContent()).toBe('ok ended: completed');
      const rows = async (name: string) => {
        const trs = await report.getByRole('table', { name }).locator('tbody tr').all();
        return Promise.all(
          trs.map(async (tr) => (await tr.locator('td').allInnerTexts()).map((t) => t.trim())),
        );
      };
      expect(await rows('Path taken')).toEqual([
        ['build', 'started'],
        ['build', 'completed'],
        ['release', 'gate waits'],
        ['release', 'gate approved'],
        ['(item)', 'item completed'],
      ]);
      expect(await rows('Sessions')).toEqual([['build.main.code #1', 'done', '$0.25', '0']]);
      await report.getByText('Spent: $0.25, 0 tokens').waitFor();
      expect(
        await report.getByRole('list', { name: 'Expectations' }).getByRole('listitem').allInnerTexts(),
      ).toEqual([
        'ok completes: true was completed',
        'ok reaches: build was started',
        'ok reaches: release was started',
        'ok spent_below: 1 was $0.25',
      ]);
      expect(await panel.getByRole('button', { name: 'Run test' }).isEnabled()).toBe(true);

      await panel.scrollIntoViewIfNeeded();
      await panel.screenshot({ path: join(SHOTS, 'chain-test-panel.png') });
      await report.scrollIntoViewIfNeeded();
      await shot(page, 'chain-test-report');
      await page.getByRole('button', { name: 'Publish', exact: true }).scrollIntoViewIfNeeded();
      await shot(page, 'chain-test-publish');
      expect(s.problems).toEqual([]);

      // A script that does not parse is not sent; one the server refuses says why, field named.
      await script.fill('gates:\n  release: approve\n  release: approve\n');
      await panel.getByRole('button', { name: 'Run test' }).click();
      expect(await panel.getByRole('alert').innerText()).toBe(
        'Not sent: Line 3, column 3: Map keys must be unique',
      );
      expect(await report.count()).toBe(1);
      await shot(page, 'chain-test-parse-error');
      await script.fill('tasks:\n  build.main.code: {status: finished}\n');
      await panel.getByRole('button', { name: 'Run test' }).click();
      const refused = panel.getByRole('alert');
      await expect
        .poll(() => refused.innerText())
        .toMatch(/^Not run: body\.tasks\.build\.main\.code: .* \(HTTP 422\)$/);
      expect(await report.count()).toBe(0);
      await shot(page, 'chain-test-refused');
      // The browser logs the refused request; nothing else went wrong.
      expect(s.problems.map((p) => p.replace(/\(http:[^)]*\)/, '(…)'))).toEqual([
        'console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity) (…)',
      ]);
      expect(s.foreign).toEqual([]);
    }, 240_000);
  },
);
