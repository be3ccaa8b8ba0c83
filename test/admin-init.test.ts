import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAKE_CLAUDE } from './helpers/fake-claude.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, jigBin, runJig, tempHome } from './helpers/server.js';

/*
 * `jig admin init` with fake agent CLIs on PATH (scripts that record their argv) and a temp HOME:
 * what it changes the first time, and that a second run changes nothing. The Claude Code plugin it
 * also installs is test/admin-plugin.test.ts's.
 */

afterAll(cleanupAll);

const NOT_RUN = '#!/bin/sh\nexit 3\n';
const COMMANDS = [
  'board',
  'check',
  'doctor',
  'gates',
  'handoff',
  'prepare',
  'review',
  'status',
  'steer',
  'triage',
];

function world(agents: Record<string, string>) {
  const home = tempHome('jig-init-home-');
  const bin = join(home, 'fake-bin');
  mkdirSync(bin);
  for (const [name, script] of Object.entries(agents)) {
    writeFileSync(join(bin, name), script);
    chmodSync(join(bin, name), 0o755);
  }
  const jigHome = join(home, 'jig-home');
  const env = {
    HOME: home,
    // Only the fakes: no real agent CLI and no `jig` is found, so the launch is node + this bin.
    PATH: bin,
    CODEX_HOME: '',
    JIG_HOME: jigHome,
    FAKE_LOG: join(home, 'claude.log'),
    FAKE_STATE: join(home, 'claude.state.json'),
  };
  const log = () => (existsSync(env.FAKE_LOG) ? readFileSync(env.FAKE_LOG, 'utf8').trim().split('\n') : []);
  return {
    home,
    bin,
    jigHome,
    env,
    log,
    init: (...args: string[]) => runJig(['admin', 'init', ...args], env),
  };
}

const launch = (jigHome: string) => [
  'jig',
  '-e',
  `JIG_HOME=${jigHome}`,
  '--',
  process.execPath,
  jigBin,
  'admin',
  'mcp',
];

describe('jig admin init', () => {
  it('registers with claude and codex found on PATH; a second run changes nothing', async () => {
    const w = world({ claude: FAKE_CLAUDE, codex: NOT_RUN });
    const toml = join(w.home, '.codex', 'config.toml');
    mkdirSync(join(w.home, '.codex'));
    writeFileSync(toml, 'model = "o3"\n');

    const first = await w.init();
    const added = ['mcp', 'add', '-s', 'user', ...launch(w.jigHome)];
    const dir = join(w.jigHome, 'claude-plugin');
    const version = (
      JSON.parse(readFileSync(join(dir, 'jig', '.claude-plugin', 'plugin.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const plugin = `the Claude Code plugin jig@jig ${version} (${COMMANDS.map((c) => `/jig:${c}`).join(' ')})`;
    expect(first).toEqual({
      code: 0,
      stdout: [
        `claude: ran \`claude ${added.join(' ')}\``,
        `plugin: wrote ${plugin} to ${dir}`,
        `claude plugin: installed jig@jig ${version} (ran claude plugin marketplace add --scope user ${dir}; claude plugin install -s user jig@jig)`,
        `codex: added [mcp_servers.jig] to ${toml}`,
        'gemini: gemini not found on PATH; skipped',
        'cursor: cursor-agent or cursor not found on PATH; skipped',
        'changed 3 agent configuration(s); restart the agent CLIs to load the jig tools',
        '',
      ].join('\n'),
      stderr: '',
    });
    const firstLog = [
      'mcp|get|jig|',
      `${added.join('|')}|`,
      'plugin|marketplace|list|--json|',
      `plugin|marketplace|add|--scope|user|${dir}|`,
      'plugin|list|--json|',
      'plugin|install|-s|user|jig@jig|',
    ];
    expect(w.log()).toEqual(firstLog);
    const written = readFileSync(toml, 'utf8');
    expect(written).toBe(
      [
        'model = "o3"',
        '',
        '[mcp_servers.jig]',
        `command = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(jigBin)}, "admin", "mcp"]`,
        '',
        '[mcp_servers.jig.env]',
        `JIG_HOME = ${JSON.stringify(w.jigHome)}`,
        '',
      ].join('\n'),
    );

    const second = await w.init();
    expect(second).toEqual({
      code: 0,
      stdout: [
        'claude: Claude Code already has an MCP server named jig; unchanged',
        `plugin: ${dir} holds ${plugin}; unchanged`,
        `claude plugin: jig@jig ${version} is installed; unchanged`,
        `codex: ${toml} already has [mcp_servers.jig]; unchanged`,
        'gemini: gemini not found on PATH; skipped',
        'cursor: cursor-agent or cursor not found on PATH; skipped',
        'nothing changed',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(w.log()).toEqual([
      ...firstLog,
      'mcp|get|jig|',
      'plugin|marketplace|list|--json|',
      'plugin|list|--json|',
    ]);
    expect(readFileSync(toml, 'utf8')).toBe(written);
  });

  it('--repo writes the per-project files (Claude project scope, Gemini and Cursor in the repo), keeping what they held', async () => {
    const w = world({ claude: FAKE_CLAUDE, gemini: NOT_RUN, 'cursor-agent': NOT_RUN });
    const repo = makeRepo();
    mkdirSync(join(repo, '.gemini'));
    writeFileSync(
      join(repo, '.gemini', 'settings.json'),
      '{"theme": "dark", "mcpServers": {"other": {"command": "x"}}}',
    );

    const first = await w.init('--repo', repo);
    expect(first.code, first.stderr).toBe(0);
    expect(w.log()[1]).toBe(`${['mcp', 'add', '-s', 'project', ...launch(w.jigHome)].join('|')}|`);
    const want = { command: process.execPath, args: [jigBin, 'admin', 'mcp'], env: { JIG_HOME: w.jigHome } };
    expect(JSON.parse(readFileSync(join(repo, '.gemini', 'settings.json'), 'utf8'))).toEqual({
      theme: 'dark',
      mcpServers: { other: { command: 'x' }, jig: want },
    });
    expect(JSON.parse(readFileSync(join(repo, '.cursor', 'mcp.json'), 'utf8'))).toEqual({
      mcpServers: { jig: want },
    });
    expect(existsSync(join(w.home, '.gemini'))).toBe(false);
    expect(first.stdout).toContain('codex: codex not found on PATH; skipped\n');
    // Claude's MCP server and plugin, Gemini and Cursor; the plugin in Claude's local scope (not
    // committed: its marketplace path is this machine's), run in the repository.
    expect(first.stdout).toMatch(/changed 4 agent configuration\(s\)/);
    const dir = join(w.jigHome, 'claude-plugin');
    expect(w.log()).toContain(`plugin|marketplace|add|--scope|local|${dir}|`);
    expect(w.log()).toContain('plugin|install|-s|local|jig@jig|');

    const second = await w.init('--repo', repo);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/\nnothing changed\n$/);
  });

  it('leaves a settings file it cannot read as it is, and exits 1', async () => {
    const w = world({ gemini: NOT_RUN });
    mkdirSync(join(w.home, '.gemini'));
    const file = join(w.home, '.gemini', 'settings.json');
    writeFileSync(file, '{ not json');
    const r = await w.init();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`gemini: ${file} is not valid JSON .*; fix it and run again\\n`));
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });

  it('reads config.toml as TOML: a jig table however spelled is found; a different one is left as it is', async () => {
    const w = world({ codex: NOT_RUN });
    mkdirSync(join(w.home, '.codex'));
    const toml = join(w.home, '.codex', 'config.toml');
    const same = [
      '# my codex config',
      '[ mcp_servers . "jig" ]  # quoted and spaced',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${JSON.stringify(jigBin)}, "admin", "mcp"]`,
      `env = { JIG_HOME = ${JSON.stringify(w.jigHome)} }`,
      '',
    ].join('\n');
    writeFileSync(toml, same);
    const r = await w.init();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`codex: ${toml} already has [mcp_servers.jig]; unchanged\n`);
    expect(readFileSync(toml, 'utf8')).toBe(same);

    const other = '[mcp_servers."jig"]\ncommand = "/opt/other/jig"\n';
    writeFileSync(toml, other);
    const again = await w.init('--force');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      `codex: a different jig entry exists in ${toml}; left as it is (jig does not rewrite a TOML file: edit it by hand)\n`,
    );
    expect(again.stdout).toMatch(/\nnothing changed\n$/);
    expect(readFileSync(toml, 'utf8')).toBe(other);
  });

  it('leaves a config.toml it cannot parse, or cannot append a table to, as it is, and exits 1', async () => {
    const w = world({ codex: NOT_RUN });
    mkdirSync(join(w.home, '.codex'));
    const toml = join(w.home, '.codex', 'config.toml');
    writeFileSync(toml, 'model = "o3\n');
    const r = await w.init();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(`codex: ${toml} is not valid TOML \\(.*\\); fix it and run again\\n`),
    );
    expect(readFileSync(toml, 'utf8')).toBe('model = "o3\n');

    const inline = 'mcp_servers = { other = { command = "x" } }\n';
    writeFileSync(toml, inline);
    const r2 = await w.init();
    expect(r2.code).toBe(1);
    expect(r2.stdout).toContain(`codex: ${toml} cannot take a [mcp_servers.jig] table appended`);
    expect(readFileSync(toml, 'utf8')).toBe(inline);
  });

  it('leaves a different mcpServers.jig as it is unless --force replaces it', async () => {
    const w = world({ gemini: NOT_RUN });
    mkdirSync(join(w.home, '.gemini'));
    const file = join(w.home, '.gemini', 'settings.json');
    const mine = '{"mcpServers": {"jig": {"command": "/opt/my/jig", "args": ["admin", "mcp"]}}}';
    writeFileSync(file, mine);
    const r = await w.init();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `gemini: a different jig entry exists in ${file}; left as it is (--force replaces it)\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe(mine);

    const forced = await w.init('--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`gemini: replaced mcpServers.jig in ${file}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8')).mcpServers.jig).toEqual({
      command: process.execPath,
      args: [jigBin, 'admin', 'mcp'],
      env: { JIG_HOME: w.jigHome },
    });
  });

  it('writes through a symlinked config file, which stays a symlink', async () => {
    const w = world({ gemini: NOT_RUN, codex: NOT_RUN });
    const dots = join(w.home, 'dotfiles');
    mkdirSync(dots);
    mkdirSync(join(w.home, '.gemini'));
    mkdirSync(join(w.home, '.codex'));
    writeFileSync(join(dots, 'settings.json'), '{"theme": "dark"}');
    writeFileSync(join(dots, 'config.toml'), 'model = "o3"\n');
    const link = join(w.home, '.gemini', 'settings.json');
    const tomlLink = join(w.home, '.codex', 'config.toml');
    symlinkSync(join(dots, 'settings.json'), link);
    symlinkSync(join(dots, 'config.toml'), tomlLink);
    const r = await w.init();
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(tomlLink).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dots, 'settings.json'), 'utf8'))).toMatchObject({
      theme: 'dark',
      mcpServers: { jig: { command: process.execPath } },
    });
    expect(readFileSync(join(dots, 'config.toml'), 'utf8')).toMatch(
      /^model = "o3"\n\n\[mcp_servers\.jig\]\n/,
    );
  });

  it('registers the absolute path of the jig found on PATH', async () => {
    const w = world({ claude: FAKE_CLAUDE, cursor: NOT_RUN, jig: NOT_RUN });
    const r = await w.init();
    expect(r.code, r.stderr).toBe(0);
    const jig = join(w.bin, 'jig');
    expect(w.log()[1]).toBe(
      `${['mcp', 'add', '-s', 'user', 'jig', '-e', `JIG_HOME=${w.jigHome}`, '--', jig, 'admin', 'mcp'].join('|')}|`,
    );
    expect(JSON.parse(readFileSync(join(w.home, '.cursor', 'mcp.json'), 'utf8')).mcpServers.jig).toEqual({
      command: jig,
      args: ['admin', 'mcp'],
      env: { JIG_HOME: w.jigHome },
    });
  });
});
