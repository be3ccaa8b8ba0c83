import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupAll, jigBin, repoRoot, tempHome } from './helpers/server.js';

/*
 * Every `jig` start builds the whole command tree, so whatever the tree loads, every start waits
 * for (issue 42: 0.3-0.9 s before a verb did anything). Building it loads commander and the
 * definitions only; a verb's code (the client, the contract's schemas and zod, yaml, the MCP SDK)
 * loads when the verb runs (src/cli/lazy.ts). Held by what a start loads, not by how long it takes.
 */

const dir = mkdtempSync(join(tmpdir(), 'jig-cli-start-'));
// A loader hook that writes down every module loaded, and at exit what require() loaded.
writeFileSync(
  join(dir, 'hooks.mjs'),
  `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) {
  appendFileSync(log, url + '\\n');
  return next(url, context);
}
`,
);
writeFileSync(
  join(dir, 'record.mjs'),
  `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
const log = process.env.JIG_TEST_LOAD_LOG;
register('./hooks.mjs', import.meta.url, { data: { log } });
const require = createRequire(import.meta.url);
process.on('exit', () => appendFileSync(log, Object.keys(require.cache).join('\\n') + '\\n'));
`,
);

let runs = 0;

/**
 * bin/jig.js runs the bundle (scripts/bundle.mjs): a file loaded from dist/bundle stands for the
 * modules esbuild put in it, as its metafile lists them (dist/… and node_modules/… paths).
 */
const bundleMeta = JSON.parse(readFileSync(join(repoRoot, 'dist', 'bundle', 'meta.json'), 'utf8')) as {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
};
const modulesIn = (path: string): string[] =>
  path.startsWith('dist/bundle/') ? Object.keys(bundleMeta.outputs[path]?.inputs ?? {}) : [path];

it('runs the bundle, whose chunks name their modules', () => {
  const r = start(['--version']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.files).toContain('dist/bundle/main.js');
  expect(r.files.filter((f) => f.startsWith('dist/cli/'))).toEqual([]);
});

/** Runs jig; answers its exit code, stderr and the modules it loaded (paths under the repository). */
function start(args: string[], env: NodeJS.ProcessEnv = {}) {
  const log = join(dir, `loaded-${++runs}.txt`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', join(dir, 'record.mjs'), jigBin, ...args], {
    env: {
      ...process.env,
      JIG_HOME: tempHome('jig-cli-start-home-'),
      NO_COLOR: '1',
      ...env,
      JIG_TEST_LOAD_LOG: log,
    },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const loaded = new Set(
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('file:') || l.startsWith('/'))
      .map((l) => relative(repoRoot, l.startsWith('file:') ? fileURLToPath(l) : l))
      .flatMap(modulesIn),
  );
  const files = readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('file:'))
    .map((l) => relative(repoRoot, fileURLToPath(l)));
  return { code: r.status, stderr: r.stderr, loaded: [...loaded].sort(), files };
}

/** The packages among the modules: `node_modules/zod/…` → zod, `node_modules/@a/b/…` → @a/b. */
const packages = (loaded: string[]): string[] => [
  ...new Set(
    loaded.flatMap((p) => {
      const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(p);
      return m ? [m[1]!] : [];
    }),
  ),
];

afterAll(cleanupAll);

describe('a jig start', () => {
  it.each(
    [
      { args: ['--version'], code: 0 },
      { args: ['--help'], code: 0 },
      { args: ['item', '--help'], code: 0 },
      { args: ['admin', 'addon', '--help'], code: 0 },
      { args: ['view', 'list', '--help'], code: 0 },
      { args: ['completion', 'bash'], code: 0 },
      // Option values are checked while the command line is read: with the definitions alone.
      { args: ['item', 'create', 'x', '--policy', 'not-an-assignment'], code: 2 },
    ].map((c) => ({ ...c, cmd: c.args.join(' ') })),
  )('jig $cmd loads commander and the command definitions, no verb code', ({ args, code }) => {
    const r = start(args);
    expect(r.code, r.stderr).toBe(code);
    // The hook saw the start (so an empty list below means something).
    expect(r.loaded).toContain('dist/cli/program.js');
    expect(packages(r.loaded)).toEqual(['commander']);
    const verbCode = r.loaded.filter(
      (p) => /^dist\/(client|server|mcp|runtime|store)\//.test(p) || p.endsWith('-actions.js'),
    );
    expect(verbCode).toEqual([]);
  });

  it('jig serve runs its own bundle through the code cache loader, usage errors included', () => {
    // The server loads nearly all of the code, from one CommonJS file V8 caches (ADR 0028).
    const r = start(['serve', '--port', 'abc'], { JIG_CODE_CACHE: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("option '--port <n>' argument 'abc' is invalid");
    expect(r.files).toEqual(['bin/jig.js', 'bin/code-cache.js']);
    // A usage error ran too little of the code for a cache worth keeping.
    expect(readdirSync(dir).filter((f) => f.endsWith('.cache'))).toEqual([]);
  });

  it("loads a verb's code when the verb runs", () => {
    const r = start(['view', 'list'], { JIG_URL: 'http://127.0.0.1:9' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^jig: no Jig server answers at http:\/\/127\.0\.0\.1:9/);
    expect(r.loaded).toEqual(
      expect.arrayContaining(['dist/cli/commands/view-list-actions.js', 'dist/client/http.js']),
    );
    expect(packages(r.loaded)).toContain('zod');
  });
});
