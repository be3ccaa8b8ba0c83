/** Runs the benchmarks named on the command line (all when none): npm run bench -- startup */
const all = [
  'startup',
  'triggers',
  'schedules',
  'engine',
  'config-load',
  'draft-ops',
  'wall-clock',
  'fanout',
  'ws-latency',
  'board',
  'review',
  'search',
  'claims',
  'mcp-burst',
  'store-rules',
  'session-changes',
];
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const name of wanted.length > 0 ? wanted : all) {
  if (!all.includes(name)) {
    console.error(`unknown benchmark ${name}; known: ${all.join(', ')}`);
    process.exit(2);
  }
  console.log(`## ${name}`);
  await import(`./${name}.js`);
}
