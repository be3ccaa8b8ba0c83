import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { repoRoot } from './server.js';

/*
 * Debian's chromium through playwright-core (installed by .ci/run). A machine without it skips
 * the browser tests with this reason; CI has it.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const noChromium = existsSync(CHROMIUM)
  ? null
  : `${CHROMIUM} is not installed (apt-get install chromium)`;

/** Headless, and quiet: nothing of its own goes to the network (the persistent context is the profile). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where screenshots land for a person to look at. */
export const SHOTS = join(repoRoot, '.cache', 'screenshots');

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Console errors and failed requests, and every request to a host other than the server's. */
  problems: string[];
  foreign: string[];
  close(): Promise<void>;
}

/**
 * A browser context of its own (a fresh profile) with one page: in the run's Chromium when the
 * browser project started one (test/global-chromium.ts), else in a Chromium of its own.
 */
export async function openBrowser(viewport = { width: 1280, height: 800 }): Promise<Session> {
  const endpoint = inject('jigTestChromium');
  let context: BrowserContext;
  let done: () => Promise<void>;
  if (endpoint) {
    const browser = await chromium.connect(endpoint);
    context = await browser.newContext({ viewport });
    done = async () => {
      await context.close();
      await browser.close();
    };
  } else {
    const profile = mkdtempSync(join(tmpdir(), 'jig-chromium-'));
    // A fresh profile per run: playwright takes it as the persistent context's folder.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      viewport,
      args: CHROMIUM_ARGS,
    });
    done = async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    };
  }
  // A bound on a hang, not a timing: Playwright's 30 s for one wait came within a second of running
  // out while Chromium loaded Redoc's 1 MB bundle on a loaded 2-core machine.
  context.setDefaultTimeout(60_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  const foreign: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (m) => {
      if (m.type() !== 'error') return;
      problems.push(`console: ${m.text()} (${m.location().url})`);
    });
    p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  };
  watch(page);
  context.on('page', watch);
  // Every server a test starts binds loopback: anything else is another host.
  context.on('request', (r) => {
    const url = r.url();
    if (url.startsWith('data:')) return;
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)) foreign.push(url);
  });

  mkdirSync(SHOTS, { recursive: true });
  return {
    context,
    page,
    problems,
    foreign,
    close: done,
  };
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

/** Where the docs keep the screenshots they show (docs/getting-started.md). */
export const DOC_SHOTS = join(repoRoot, 'docs', 'images');

/**
 * A screenshot the docs show: saved with the others, and into docs/images when `JIG_DOC_SHOTS=1`
 * (`node scripts/docs-screenshots.mjs` refreshes them), so the docs show what the test saw.
 */
export async function docShot(page: Page, name: string): Promise<void> {
  await shot(page, name);
  if (process.env.JIG_DOC_SHOTS === '1')
    await page.screenshot({ path: join(DOC_SHOTS, `${name}.png`), fullPage: false, scale: 'css' });
}
