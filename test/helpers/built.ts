import type * as ServerMain from '../../src/server/main.js';

/*
 * The server an in-process test starts comes from the build (dist/, which `npm test` makes first),
 * loaded by Node itself: vitest.config.ts externalizes dist/. Through Vite's module runner the same
 * server is some 800 modules transformed and evaluated one by one in every test file's process,
 * about two seconds of CPU per file; Node's own loader takes a fraction of that, and the tests run
 * the code that ships. Types still come from src/ (the build writes none), and a test may import
 * pure helpers from src/ beside it: nothing here checks `instanceof` across the two copies.
 */
const dist = (rel: string): string => new URL(`../../dist/${rel}`, import.meta.url).href;

const main: typeof ServerMain = await import(/* @vite-ignore */ dist('server/main.js'));

export const { startServer } = main;
export type { RunningServer } from '../../src/server/main.js';
