/*
 * A fake `claude` for `jig admin init` and `jig admin plugin install-claude`: a Node script that
 * writes each argv to $FAKE_LOG (`a|b|c|` a line) and keeps, in the JSON file $FAKE_STATE, what the
 * real CLI keeps in its config: whether an MCP server named jig exists (`mcp get|add`), the
 * marketplaces (`plugin marketplace list|add|remove|update`) and the installed plugins (`plugin
 * list|install|update`), answering the `--json` listings in the shapes Claude Code 2.1.197 prints.
 * test/e2e-agents/plugin-claude.test.ts runs the real one.
 */
export const FAKE_CLAUDE = `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
fs.appendFileSync(process.env.FAKE_LOG, args.map((a) => a + '|').join('') + '\\n');
const file = process.env.FAKE_STATE;
const s = fs.existsSync(file)
  ? JSON.parse(fs.readFileSync(file, 'utf8'))
  : { mcp: false, markets: [], plugins: [] };
const save = () => fs.writeFileSync(file, JSON.stringify(s));
const done = (out) => {
  if (out !== undefined) process.stdout.write(typeof out === 'string' ? out + '\\n' : JSON.stringify(out, null, 2) + '\\n');
  process.exit(0);
};
const scopeOf = () => (args.includes('-s') ? args[args.indexOf('-s') + 1] : 'user');
const versionIn = (name) => {
  const m = s.markets.find((x) => x.name === name.split('@')[1]);
  return JSON.parse(fs.readFileSync(path.join(m.path, 'jig', '.claude-plugin', 'plugin.json'), 'utf8')).version;
};
const [a, b, c] = args;
if (a === 'mcp' && b === 'get') {
  if (s.mcp) done('jig: found');
  process.stderr.write('No MCP server named "jig".\\n');
  process.exit(1);
}
if (a === 'mcp' && b === 'add') { s.mcp = true; save(); done('added'); }
if (a === 'plugin' && b === 'marketplace') {
  if (c === 'list') done(s.markets);
  if (c === 'add') {
    const dir = args[args.length - 1];
    const name = JSON.parse(fs.readFileSync(path.join(dir, '.claude-plugin', 'marketplace.json'), 'utf8')).name;
    s.markets.push({ name, source: 'directory', path: dir, installLocation: dir });
    save();
    done('added');
  }
  if (c === 'remove') { s.markets = s.markets.filter((m) => m.name !== args[3]); save(); done('removed'); }
  if (c === 'update') done('updated');
}
if (a === 'plugin' && b === 'list') done(s.plugins);
if (a === 'plugin' && b === 'install') {
  const id = args[args.length - 1];
  const scope = scopeOf();
  s.plugins.push({ id, version: versionIn(id), scope, enabled: true, ...(scope === 'user' ? {} : { projectPath: process.cwd() }) });
  save();
  done('installed');
}
if (a === 'plugin' && b === 'update') {
  const id = args[args.length - 1];
  const p = s.plugins.find((x) => x.id === id && x.scope === scopeOf());
  if (!p) { process.stderr.write('not installed\\n'); process.exit(1); }
  p.version = versionIn(id);
  save();
  done('updated');
}
process.stderr.write('fake claude: unexpected ' + args.join(' ') + '\\n');
process.exit(2);
`;
