/** Layer rules from DESIGN.md "Layout and layers": a layer imports only from layers listed after it. */
const layers = ['cli', 'mcp', 'client', 'server', 'runtime', 'store', 'core', 'contract'];
const below = {
  cli: ['mcp', 'client', 'contract', 'core'],
  mcp: ['client', 'contract', 'core'],
  client: ['contract', 'core'],
  server: ['runtime', 'store', 'core', 'contract'],
  runtime: ['store', 'core', 'contract'],
  store: ['core', 'contract'],
  core: ['contract'],
  contract: [],
};
const forbidden = layers.map((from) => ({
  name: `layer-${from}`,
  comment: `src/${from} may import only from: ${below[from].join(', ') || 'nothing in src'}`,
  severity: 'error',
  from: { path: `^src/${from}/` },
  to: {
    path: `^src/(${layers.filter((l) => l !== from && !below[from].includes(l)).join('|')})/`,
    // `jig serve` is the one CLI verb that starts the server, through server/main.ts only; the
    // server's `/mcp` route serves the MCP tools through mcp/http.ts only (docs/mcp.md).
    pathNot:
      from === 'cli' ? '^src/server/main\\.ts$' : from === 'server' ? '^src/mcp/http\\.ts$' : undefined,
  },
}));
forbidden.push(
  {
    name: 'routes-thin',
    comment:
      'routes parse, make one service call and answer: they never query the store (issue 41); the services they use come from the composition root (server/compose.ts)',
    severity: 'error',
    from: { path: '^src/server/routes/' },
    to: { path: '^src/store/' },
  },
  {
    name: 'pure-core-contract',
    comment: 'core/ and contract/ are pure: no node:* built-ins, no fastify, no store',
    severity: 'error',
    from: { path: '^src/(core|contract)/', pathNot: '\\.test\\.ts$' },
    to: { dependencyTypes: ['core'] },
  },
  {
    name: 'pure-core-contract-libs',
    severity: 'error',
    from: { path: '^src/(core|contract)/', pathNot: '\\.test\\.ts$' },
    to: { path: 'node_modules/(fastify|@fastify|better-sqlite3|kysely|pino)' },
  },
  {
    name: 'workers-below-engine',
    comment:
      'runtime/workers runs what the engine decides and says how it ended; it never reaches back into the engine (ADR 0007)',
    severity: 'error',
    from: { path: '^src/runtime/workers/' },
    to: { path: '^src/runtime/engine/' },
  },
  {
    name: 'web-contract-only',
    comment: 'the board (web/) is a client of the HTTP API: of src/ it imports only contract/ (types)',
    severity: 'error',
    from: { path: '^web/' },
    to: { path: '^src/', pathNot: '^src/contract/' },
  },
  {
    name: 'web-no-node',
    comment: 'the board runs in a browser: no node:* built-ins',
    severity: 'error',
    from: { path: '^web/src/' },
    to: { dependencyTypes: ['core'] },
  },
  {
    name: 'no-circular',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
);
module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
