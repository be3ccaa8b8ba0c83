import type * as Main from '../src/server/main.js';

/*
 * The server as `jig serve` runs it: built (npm run build) and loaded from dist/, not src/ through
 * tsx. tsx compiles with esbuild's keepNames, which sets the name of every named closure each time
 * one is made, on every request; a user's server never pays that, and the benchmarks measured it
 * as Jig's own cost (about a twentieth of a listing).
 */
const built: typeof Main = await import(new URL('../dist/server/main.js', import.meta.url).href);

export const startServer = built.startServer;
