// Bundles the compiled CLI (dist/cli/main.js, with the server it starts) into dist/bundle/, which
// bin/jig.js runs. Node spent about half of a `jig serve` start, and most of a short CLI verb, finding,
// reading and compiling some 800 separate modules (issue 42, docs/performance.md "Start-up"); one
// bundle split at the lazy verbs' dynamic imports loads the same code in a fraction of that.
// tsc's dist/ stays whole beside it: the builtin task scripts run from there, and bin/jig.js falls
// back to it when it is newer than the bundle (a `tsc` without this step).
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });

/*
 * eslint (a dev dependency) keeps Ajv 6 at the top of node_modules, so the four packages that use
 * Ajv 8 (Fastify's validator and serializer compilers, the MCP SDK, ajv-formats) each get a copy of
 * their own: npm cannot hoist them. They are the same version, so the bundle takes one, from the
 * first of them, for every `ajv` import (about 0.75 MB less code for each start to compile). A
 * copy of another version stops the build instead of being merged.
 */
const ajvCopies = [
  'node_modules/@fastify/ajv-compiler/node_modules/ajv',
  'node_modules/fast-json-stringify/node_modules/ajv',
  'node_modules/@modelcontextprotocol/sdk/node_modules/ajv',
  'node_modules/ajv-formats/node_modules/ajv',
].filter((dir) => existsSync(join(root, dir, 'package.json')));
const ajvVersions = new Set(
  ajvCopies.map((dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).version),
);
if (ajvVersions.size > 1)
  throw new Error(`Ajv copies differ (${[...ajvVersions].join(', ')}): update scripts/bundle.mjs`);
const oneAjv = {
  name: 'one-ajv',
  setup(b) {
    if (ajvCopies.length < 2) return;
    const home = join(root, ajvCopies[0]);
    b.onResolve({ filter: /^ajv(\/.*)?$/ }, async (args) => {
      // Only the importers that would get a nested Ajv 8; anything else resolves as it would.
      if (!ajvCopies.some((dir) => args.importer.startsWith(join(root, dirname(dirname(dir))))))
        return undefined;
      const r = await b.resolve(`./${args.path.slice('ajv'.length).replace(/^\//, '')}`, {
        kind: args.kind,
        resolveDir: home,
      });
      return r.errors.length > 0 ? undefined : { path: r.path };
    });
  },
};

/** What both bundles share. */
const common = {
  entryPoints: { main: join(root, 'dist', 'cli', 'main.js') },
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // No keepNames: it set every function's `name` again as the modules loaded (over 5 000
  // defineProperty calls a start, and one each time a named closure is made), some 5 % of a start's
  // CPU. Only functions esbuild renames to avoid a clash (`describe3`) answer another `name`, and
  // nothing reads those; stack traces take names from the code itself either way, and
  // --enable-source-maps gives the TypeScript lines.
  keepNames: false,
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  plugins: [oneAjv],
  // Native code, and packages that load files of their own at run time, stay in node_modules.
  // pino is bundled: it loads files of its own only for transports (worker threads), which Jig does
  // not use; pino-pretty stays outside, loaded when a terminal reads the log (server/log-format.ts).
  external: ['better-sqlite3', 'pg-native', 'pino-pretty', 'bufferutil', 'utf-8-validate'],
};

const result = await build({
  ...common,
  // Chunks shared by the entry and the verbs loaded later (src/cli/lazy.ts) stay separate files.
  splitting: true,
  format: 'esm',
  // Bundled CommonJS packages call require() for Node's built-ins; ESM output has none of its own.
  banner: {
    js: "import { createRequire as __jigRequire } from 'node:module';\nconst require = __jigRequire(import.meta.url);",
  },
});

// Which source modules each output file holds: test/cli-start.test.ts reads it to tell what a start loads.
writeFileSync(join(outdir, 'meta.json'), JSON.stringify(result.metafile));

/*
 * The serve bundle is read at every start (bin/code-cache.js): as ASCII it is one-byte text, read
 * and held in half the time and memory of UTF-8 (issue 43). esbuild escapes every string it may,
 * but keeps comments (and the packages' licence notes) as written: their few non-ASCII characters
 * become \u escapes, which change nothing in a comment. A character anywhere else (a tagged
 * template, a regular expression) is left as it is and named: the start then reads UTF-8.
 */
function asciiComments(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const comment = /^\s*(\/\/|\/?\*|\(\*!)/;
  const left = [];
  const out = lines.map((line, i) => {
    if (!/[^\x00-\x7f]/.test(line)) return line;
    // A whole comment line, or a line comment after code whose quotes all closed before it.
    const before = line.replace(/[^\x00-\x7f].*$/, '');
    const closed = ["'", '"', '`'].every((q) => before.split(q).length % 2 === 1);
    if (comment.test(line) || (closed && /\/\/[^'"`]*$/.test(before))) {
      return line.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
    }
    left.push(i + 1);
    return line;
  });
  writeFileSync(file, out.join('\n'));
  if (left.length > 0)
    console.warn(`the serve bundle is not ASCII (lines ${left.join(', ')}): a start reads it as UTF-8`);
  return left.length === 0;
}

/*
 * `jig serve` loads nearly all of the code anyway, and a server is started far more often than a
 * verb is typed (every test, every restart): it runs from one CommonJS file instead, which
 * bin/code-cache.js compiles with V8's code cache (ADR 0028). ES modules cannot use that cache on
 * Node 20. The file's name holds a hash of its content, so a cache is never applied to another
 * build's code; serve.json names the current one.
 */
const serve = await build({
  ...common,
  entryPoints: { serve: join(root, 'dist', 'cli', 'main.js') },
  entryNames: '[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // Without whitespace and comments the file is a third smaller (7.4 to 5.0 MB), read and decoded
  // at every start; names stay (keepNames) and the linked source map still maps every position.
  minifyWhitespace: true,
  // Modules find files beside them from import.meta.url: here, the one file they all live in.
  define: { 'import.meta.url': '__jigImportMetaUrl' },
  banner: { js: "var __jigImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
const serveFile = Object.keys(serve.metafile.outputs).find((f) => f.endsWith('.cjs'));
if (!serveFile) throw new Error('the serve bundle was not written');
const ascii = asciiComments(join(root, serveFile));
// `ascii` spares every start a scan of the whole file for a byte above 0x7f (bin/code-cache.js).
writeFileSync(join(outdir, 'serve.json'), JSON.stringify({ file: serveFile.split('/').pop(), ascii }));
