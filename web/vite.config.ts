import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/*
 * The board: built into dist/web by `npm run build` and served by `jig serve` (server/routes/board.ts).
 * Hashed file names under assets/ (served with a year's cache), no inline script (the pages' CSP
 * allows scripts from 'self' only), nothing fetched from another host.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // The module preload polyfill is an inline script; every browser the board supports has it.
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
    rolldownOptions: {
      // Libraries marked "use client" for React Server Components: meaningless in a browser bundle.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
  logLevel: 'warn',
});
