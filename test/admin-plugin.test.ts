import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { FAKE_CLAUDE } from './helpers/fake-claude.js';
import { cleanupAll, jigBin, runJig, tempHome } from './helpers/server.js';

/*
 * The Claude Code plugin `jig admin init` and `jig admin plugin install-claude` write into the Jig
 * home (a local marketplace) and install with the `claude` on PATH: its files and what they say,
 * checked against the MCP server they start; refreshes; a fake `claude` for the install steps
 * (test/e2e-agents/plugin-claude.test.ts runs the real one).
 */

afterAll(cleanupAll);

/** Each command, and the Jig MCP tools its prompt must name. */
const COMMANDS: Record<string, string[]> = {
  board: ['list_work_items'],
  check: ['list_work_items', 'ensure_repo'],
  doctor: ['list_work_items'],
  gates: ['list_work_items', 'get_gate_artifact', 'approve_gate', 'reject_gate'],
  handoff: ['create_work_item'],
  prepare: ['get_work_item', 'set_chain', 'set_attachments', 'set_agent_overrides', 'resume_work_item'],
  review: ['compare_changes', 'list_threads', 'add_review_comment', 'submit_review'],
  status: ['get_work_item', 'list_work_items'],
  steer: ['get_work_item', 'resume_work_item', 'retry_work_item'],
  triage: ['list_work_items', 'get_work_item', 'resume_work_item', 'cancel_work_item'],
};

const NOT_RUN = '#!/bin/sh\nexit 3\n';

function world(agents: Record<string, string> = {}) {
  const home = tempHome('jig-plugin-home-');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  for (const [name, script] of Object.entries(agents)) {
    writeFileSync(join(bin, name), script);
    chmodSync(join(bin, name), 0o755);
  }
  const jigHome = join(home, 'jig-home');
  // PATH is the fakes only: no real agent CLI is found, and nothing touches a real ~/.claude.
  const env = {
    HOME: home,
    PATH: bin,
    CODEX_HOME: '',
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    JIG_HOME: jigHome,
    FAKE_LOG: join(home, 'claude.log'),
    FAKE_STATE: join(home, 'claude.state.json'),
  };
  const dir = join(jigHome, 'claude-plugin');
  const read = (p: string) => readFileSync(join(dir, p), 'utf8');
  const log = () => (existsSync(env.FAKE_LOG) ? readFileSync(env.FAKE_LOG, 'utf8').trim().split('\n') : []);
  return {
    home,
    bin,
    env,
    dir,
    read,
    log,
    version: () => (JSON.parse(read('jig/.claude-plugin/plugin.json')) as { version: string }).version,
    install: (...args: string[]) => runJig(['admin', 'plugin', 'install-claude', ...args], env),
    init: (...args: string[]) => runJig(['admin', 'init', ...args], env),
  };
}

/** A command file's frontmatter keys and its body. */
function parseCommand(text: string): { meta: Record<string, string>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  expect(m, text).not.toBeNull();
  const meta: Record<string, string> = {};
  for (const line of m![1]!.split('\n')) {
    const kv = /^([\w-]+):\s*(.*)$/.exec(line);
    expect(kv, line).not.toBeNull();
    meta[kv![1]!] = kv![2]!.replace(/^'(.*)'$/, '$1');
  }
  return { meta, body: m![2]! };
}

/** The tools the server a `.mcp.json` entry starts lists (it needs no running Jig server for that). */
async function toolsOf(server: { command: string; args: string[]; env: Record<string, string> }) {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { PATH: process.env.PATH ?? '', ...server.env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'jig-plugin-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe('the Claude Code plugin', () => {
  it('install-claude writes a marketplace in the home whose commands name the tools its MCP server has', async () => {
    const w = world();
    const r = await w.install();
    expect(r.code, r.stderr).toBe(0);
    const version = w.version();
    expect(version).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{8}$/);
    const names = Object.keys(COMMANDS).map((c) => `/jig:${c}`);
    expect(r.stdout).toBe(
      [
        `plugin: wrote the Claude Code plugin jig@jig ${version} (${names.join(' ')}) to ${w.dir}`,
        `claude plugin: claude not found on PATH; to enable the plugin in Claude Code run: claude plugin marketplace add ${w.dir} && claude plugin install jig@jig`,
        '',
      ].join('\n'),
    );

    const market = JSON.parse(w.read('.claude-plugin/marketplace.json')) as {
      name: string;
      owner: { name: string };
      plugins: { name: string; source: string; version: string }[];
    };
    expect(market.name).toBe('jig');
    expect(market.owner.name).not.toBe('');
    expect(market.plugins).toEqual([expect.objectContaining({ name: 'jig', source: './jig', version })]);
    const manifest = JSON.parse(w.read('jig/.claude-plugin/plugin.json')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'jig', version });

    // .mcp.json starts this install's `jig admin mcp` for this home, by absolute paths.
    const mcp = JSON.parse(w.read('jig/.mcp.json')) as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    expect(Object.keys(mcp.mcpServers)).toEqual(['jig']);
    const server = mcp.mcpServers.jig!;
    expect(server).toEqual({
      command: process.execPath,
      args: [jigBin, 'admin', 'mcp'],
      env: { JIG_HOME: w.env.JIG_HOME },
    });
    expect(statSync(server.command).isFile()).toBe(true);
    accessSync(server.command, constants.X_OK);
    const tools = await toolsOf(server);
    expect(tools).toContain('list_work_items');

    for (const [name, wanted] of Object.entries(COMMANDS)) {
      const { meta, body } = parseCommand(w.read(`jig/commands/${name}.md`));
      expect(meta.description, name).toMatch(/\S{3}/);
      // An argument hint exactly where the prompt takes the arguments.
      expect(meta['argument-hint'] !== undefined, name).toBe(body.includes('$ARGUMENTS'));
      for (const tool of wanted) {
        expect(tools, `${name}: ${tool}`).toContain(tool);
        expect(body, `${name} names ${tool}`).toContain(`\`${tool}\``);
      }
      // Every tool-like name in the prompt is one the server has: a typo fails here.
      const named = body.match(/`[a-z]+_[a-z_]+`/g) ?? [];
      const verbs =
        /^`(list|get|create|ensure|set|approve|reject|pause|resume|unblock|retry|raise|skip|complete|cancel|escalate|add|resolve|reopen|submit|compare)_/;
      for (const n of named.filter((x) => verbs.test(x)))
        expect(tools, `${name}: ${n}`).toContain(n.slice(1, -1));
      // allowed-tools grants only reads (and create_work_item, which files paused), under both of
      // the names Claude Code gives them, each a tool the server has.
      const allowed = (meta['allowed-tools'] ?? '').split(',').map((t) => t.trim());
      expect(allowed.length, name).toBeGreaterThan(0);
      for (const t of allowed) {
        const m = /^mcp__(?:jig|plugin_jig_jig)__(\w+)$/.exec(t);
        expect(m, `${name}: ${t}`).not.toBeNull();
        expect(tools).toContain(m![1]);
        expect([
          'list_work_items',
          'get_work_item',
          'get_gate_artifact',
          'list_threads',
          'compare_changes',
          'create_work_item',
        ]).toContain(m![1]);
      }
      expect(body).not.toMatch(/\{\{/);
    }
    // doctor runs this install's CLI for this home.
    expect(w.read('jig/commands/doctor.md')).toContain(
      `JIG_HOME=${w.env.JIG_HOME} ${process.execPath} ${jigBin} admin doctor`,
    );
    expect(w.read('jig/commands/doctor.md')).toContain(`version ${version}`);
  });

  it('a refresh puts back what was changed, drops what was added, and stamps a new version when the launch changes', async () => {
    const w = world();
    expect((await w.install()).code).toBe(0);
    const first = w.version();
    const status = w.read('jig/commands/status.md');

    const again = await w.install('--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      dir: w.dir,
      version: first,
      files: 'unchanged',
      commands: Object.keys(COMMANDS).map((c) => `/jig:${c}`),
      claude: { state: 'skipped', ran: [] },
    });

    writeFileSync(join(w.dir, 'jig', 'commands', 'status.md'), 'edited\n');
    writeFileSync(join(w.dir, 'jig', 'commands', 'stale.md'), '---\ndescription: old\n---\nold\n');
    const fixed = await w.install('--json');
    expect(JSON.parse(fixed.stdout)).toMatchObject({ version: first, files: 'written' });
    expect(w.read('jig/commands/status.md')).toBe(status);
    expect(existsSync(join(w.dir, 'jig', 'commands', 'stale.md'))).toBe(false);

    // A `jig` on PATH is what the plugin starts from now on: new content, new version.
    writeFileSync(join(w.bin, 'jig'), NOT_RUN);
    chmodSync(join(w.bin, 'jig'), 0o755);
    const moved = await w.install('--json');
    const next = JSON.parse(moved.stdout) as { version: string; files: string };
    expect(next.files).toBe('written');
    expect(next.version).not.toBe(first);
    expect(JSON.parse(w.read('jig/.mcp.json')).mcpServers.jig.command).toBe(join(w.bin, 'jig'));
    expect(w.read('jig/commands/doctor.md')).toContain(
      `JIG_HOME=${w.env.JIG_HOME} ${join(w.bin, 'jig')} admin doctor`,
    );
  });

  it('jig admin init writes the plugin too, and says how to enable it without claude on PATH', async () => {
    const w = world();
    const r = await w.init();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`plugin: wrote the Claude Code plugin jig@jig ${w.version()} (`);
    expect(r.stdout).toContain(
      `claude plugin: claude not found on PATH; to enable the plugin in Claude Code run: claude plugin marketplace add ${w.dir} && claude plugin install jig@jig\n`,
    );
    expect(r.stdout).toMatch(
      /\nno agent configuration changed; restart Claude Code to load the new plugin files\n$/,
    );
    expect((await w.init()).stdout).toMatch(/\nnothing changed\n$/);
  });

  it('installs into Claude Code, updates it when the version changes, and leaves another jig marketplace unless --force', async () => {
    const w = world({ claude: FAKE_CLAUDE });
    const r = await w.install();
    expect(r.code, r.stderr).toBe(0);
    const v1 = w.version();
    expect(r.stdout).toContain(
      `claude plugin: installed jig@jig ${v1} (ran claude plugin marketplace add --scope user ${w.dir}; claude plugin install -s user jig@jig)\n`,
    );

    writeFileSync(join(w.bin, 'jig'), NOT_RUN);
    chmodSync(join(w.bin, 'jig'), 0o755);
    const up = await w.install();
    expect(up.code, up.stderr).toBe(0);
    const v2 = w.version();
    expect(up.stdout).toContain(
      `claude plugin: updated jig@jig from ${v1} to ${v2} (ran claude plugin marketplace update jig; claude plugin update -s user jig@jig)\n`,
    );
    expect(w.log().slice(-4)).toEqual([
      'plugin|marketplace|list|--json|',
      'plugin|list|--json|',
      'plugin|marketplace|update|jig|',
      'plugin|update|-s|user|jig@jig|',
    ]);

    // Another home's marketplace holds the name: left as it is, unless --force.
    const state = JSON.parse(readFileSync(w.env.FAKE_STATE, 'utf8')) as { markets: { path: string }[] };
    state.markets[0]!.path = '/elsewhere/claude-plugin';
    writeFileSync(w.env.FAKE_STATE, JSON.stringify(state));
    const other = await w.install();
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toContain(
      'claude plugin: Claude Code has another marketplace named jig (/elsewhere/claude-plugin); left as it is (--force replaces it)\n',
    );
    const forced = await w.install('--force', '--json');
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout).claude).toEqual({
      state: 'changed',
      line: `jig@jig ${v2} is installed (ran claude plugin marketplace remove jig; claude plugin marketplace add --scope user ${w.dir})`,
      ran: ['claude plugin marketplace remove jig', `claude plugin marketplace add --scope user ${w.dir}`],
    });
  });

  it('exits 1, with what failed, when claude cannot list its plugins', async () => {
    const w = world({ claude: NOT_RUN });
    const r = await w.install();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'claude plugin: `claude plugin marketplace list --json` did not answer a JSON list; is this Claude Code older than its plugins?\n',
    );
    // The files are written all the same: enabling by hand works.
    expect(existsSync(join(w.dir, 'jig', '.mcp.json'))).toBe(true);
  });
});
