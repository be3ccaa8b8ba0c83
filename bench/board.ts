/**
 * The board with 10 000 items in Debian's chromium: time from navigation to the first rows on
 * screen, and frame times while the list scrolls. The baseline, in the same process and browser, is
 * the plainest page showing the same data: a bare Fastify route whose page fetches the same 10 000
 * items in one JSON answer and writes them into a table with innerHTML (no framework, no paging).
 * Run: npm run bench -- board   (needs `npm run build` and /usr/bin/chromium; BENCH_ITEMS to change the count)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { Page } from 'playwright-core';
import { openBrowser } from '../test/helpers/browser.js';
import { startJigWithRepo } from './jig-with-repo.js';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const ROUNDS = 3;

const root = mkdtempSync(join(tmpdir(), 'jig-bench-board-'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Files the items over HTTP, 16 at a time. */
async function fill(url: string, repo: string): Promise<void> {
  let next = 0;
  const one = async () => {
    for (let i = next++; i < ITEMS; i = next++) {
      const r = await fetch(`${url}/api/work-items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `Bench item ${i}: tidy the module ${i % 97}`,
          repo,
          chain: 'quick-task',
        }),
      });
      if (r.status !== 201) throw new Error(`filing failed: ${r.status} ${await r.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, one));
}

const BASELINE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>baseline</title>
<script src="/baseline.js" defer></script></head><body><table id="t"></table></body></html>`;
const BASELINE_SCRIPT = `fetch('/items.json').then((r) => r.json()).then((items) => {
  const esc = (s) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
  document.getElementById('t').innerHTML = items.map((i) =>
    '<tr class="row"><td>' + esc(i.title) + '</td><td>' + i.id + '</td><td>' + i.chain + '</td><td>' + i.status + '</td></tr>').join('');
});`;

/** Navigation start → the first row in the page, in ms. */
async function toRows(page: Page, url: string): Promise<number> {
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForSelector('.row');
  return Date.now() - t0;
}

/** Scrolls `selector` (or the window) by 120 px a frame for two seconds; answers frame times. */
async function scrollFrames(
  page: Page,
  selector: string | null,
): Promise<{ p95: number; max: number; long: number }> {
  // Runs in the page: written as text, since this file is type-checked without the DOM's types.
  const frames = await page.evaluate<number[]>(`new Promise((done) => {
    const el = ${selector ? `document.querySelector(${JSON.stringify(selector)})` : 'document.scrollingElement'};
    const times = [];
    let last = performance.now();
    const end = last + 2000;
    const step = (now) => {
      times.push(now - last);
      last = now;
      el.scrollTop += 120;
      if (now < end) requestAnimationFrame(step);
      else done(times.slice(1));
    };
    requestAnimationFrame(step);
  })`);
  const sorted = [...frames].sort((a, b) => a - b);
  return {
    p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    max: sorted[sorted.length - 1] ?? 0,
    long: frames.filter((f) => f > 50).length,
  };
}

try {
  const { jig, repo } = await startJigWithRepo(root);
  const t = Date.now();
  await fill(jig.url, repo);
  console.log(`filed ${ITEMS} items in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  // The baseline serves the same items as one JSON answer, read once from Jig.
  const items: unknown[] = [];
  for (let cursor: string | null = null; ;) {
    const page = (await (
      await fetch(`${jig.url}/api/work-items?limit=500${cursor ? `&cursor=${cursor}` : ''}`)
    ).json()) as { items: unknown[]; next_cursor: string | null };
    items.push(...page.items);
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  const itemsJson = JSON.stringify(items);
  const base = Fastify();
  base.get('/', (_q, r) => r.type('text/html').send(BASELINE_PAGE));
  base.get('/baseline.js', (_q, r) => r.type('text/javascript').send(BASELINE_SCRIPT));
  base.get('/items.json', (_q, r) => r.type('application/json').send(itemsJson));
  const baseUrl = await base.listen({ host: '127.0.0.1', port: 0 });

  // The browser tests' own launch (Debian's chromium, a fresh profile, the quiet flags).
  const browser = await openBrowser({ width: 1280, height: 800 });
  const { page } = browser;
  const board: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    plain.push(await toRows(page, `${baseUrl}/`));
    board.push(await toRows(page, `${jig.url}/`));
  }
  const boardScroll = await scrollFrames(page, '.board-list');
  await toRows(page, `${baseUrl}/`);
  const plainScroll = await scrollFrames(page, null);
  await browser.close();
  await base.close();
  await jig.close();

  const row = (name: string, ms: number, s: { p95: number; max: number; long: number }) =>
    `| ${name} | ${ms} ms | ${s.p95.toFixed(1)} ms | ${s.max.toFixed(1)} ms | ${s.long} |`;
  console.log(
    `| Page (${ITEMS} items) | navigation → rows (median of ${ROUNDS}) | frame p95 scrolling | worst frame | frames > 50 ms |`,
  );
  console.log('|---|---|---|---|---|');
  console.log(row('baseline: one JSON answer into a table', median(plain), plainScroll));
  console.log(row('the board', median(board), boardScroll));
  console.log(`| ratio | ${(median(board) / median(plain)).toFixed(2)}× | | | |`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
