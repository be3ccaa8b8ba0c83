import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS, noChromium } from './helpers/browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The browser project's Chromium (playwright's launchServer), or '' where none is installed. */
    jigTestChromium: string;
  }
}

/*
 * The browser project's setup (vitest.config.ts): one Chromium for the whole run, each board file
 * in a context of its own (a fresh profile, as incognito: no cookie or storage crosses files),
 * instead of a Chromium per file (about 1.3 s of CPU each to start). Playwright's server gives
 * the browser a temporary profile folder of its own and removes it when it closes.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (noChromium) {
    project.provide('jigTestChromium', '');
    return async () => undefined;
  }
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  project.provide('jigTestChromium', server.wsEndpoint());
  return () => server.close();
}
