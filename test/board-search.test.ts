import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { noChromium, openBrowser, shot, type Session } from './helpers/browser.js';
import { until } from './helpers/engine.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';

/*
 * Search in ⌘K (docs/board/draft.md): the palette asks GET /api/search as typing pauses and lists
 * the hits by kind; a document's words find it, and Enter opens its item. Titles still match at once.
 */

const DOC_CHAIN = `
nodes:
  - id: write
    kind: exec
    tasks:
      - id: author
        kind: agent
        harness: claude
        produces: spec
        prompt: Write the spec.
  - id: spec_review
    kind: gate
    artifact: spec
`;

let jig: JigProcess;
let repo: string;
let s: Session;

beforeAll(async () => {
  if (noChromium) return;
  ({ jig, repo } = await agentSetup(
    { doc: DOC_CHAIN },
    {
      env: {
        FAKE_AGENT_MODE: 'done',
        FAKE_AGENT_ARTIFACT: '# Spec\n\nThe zebra protocol needs a handshake.\n',
      },
    },
  ));
  s = await openBrowser();
}, 60_000);
afterAll(async () => {
  await s?.close();
  await cleanupAll();
});

const file = async (title: string, chain: string, start: boolean) => {
  const r = await http(`${jig.url}/api/work-items`, { method: 'POST', body: { title, repo, chain, start } });
  expect(r.status, r.text).toBe(201);
  return r.json;
};

describe.skipIf(noChromium !== null)(
  `search in the palette in chromium${noChromium ? ` (skipped: ${noChromium})` : ''}`,
  () => {
    it('finds a document by its text and opens its item; titles still match', async () => {
      const doc = await file('Write a spec', 'doc', true);
      const other = await file('Tidy the zebra crossing', 'doc', false);
      await until(jig, doc.id, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
      // Documents are indexed in the background once the gate is reached.
      await expect
        .poll(async () =>
          (await http(`${jig.url}/api/search?q=handshake`)).json.results.map((h: any) => [h.kind, h.ref]),
        )
        .toEqual([['document', `${doc.id}:spec`]]);
      const answer = (await http(`${jig.url}/api/search?q=${encodeURIComponent('zebra hand')}&limit=30`))
        .json;
      expect(answer.results.map((h: any) => [h.kind, h.ref])).toEqual([['document', `${doc.id}:spec`]]);

      const page = s.page;
      await page.goto(`${jig.url}/`);
      await page.getByRole('heading', { name: /Needs you/ }).waitFor();
      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Search' });
      await palette.getByRole('combobox').fill('zebra hand');
      const documents = palette.getByRole('group', { name: 'Documents' });
      const hit = documents.getByRole('option');
      await hit.first().waitFor();
      expect(await hit.count()).toBe(1);
      expect(await hit.innerText()).toContain(answer.results[0].title);
      expect(await hit.locator('mark').allInnerTexts()).toEqual(['zebra', 'handshake']);
      await shot(page, 'search-palette');
      // ↑/↓ move through the list (it loops), Enter opens the selected hit's item.
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      expect(await hit.getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/work-items/${doc.id}`);
      await page.getByRole('heading', { name: 'Write a spec' }).waitFor();

      // A title still matches at once, above what the search finds in text.
      await page.keyboard.press('Control+k');
      await palette.getByRole('combobox').fill('zebra');
      const items = palette.getByRole('group', { name: 'Work items' });
      await items.getByRole('option', { name: /Tidy the zebra crossing/ }).waitFor();
      await documents.getByRole('option').first().waitFor();
      const groups = await palette.locator('[cmdk-group-heading]').allInnerTexts();
      expect(groups).toEqual(['Work items', 'Documents']);
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/work-items/${other.id}`);
    });

    it('logged no console errors and asked no other host for anything', () => {
      expect(s.problems).toEqual([]);
      expect(s.foreign).toEqual([]);
    });
  },
);
