import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import type { AgentScript, CommandStubs } from '../../contract/chain-test.js';
import { STUBS_VARIABLE } from './command-stubs.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import { writeScriptedAgent } from './scripted-harness.js';

/*
 * The home a chain test runs in (issue 51, ADR 0041): a copy of what a run reads (chains, library,
 * policy, installed add-ons), never what reaches out (no notify.yaml, no intake.yaml, no
 * `triggers:` schedules), every harness an alias of the scripted agent, and one repository: a
 * clone of the connected one, so worktrees and branches are cut there and never in the real
 * repository.
 */

export interface TestHome {
  home: string;
  /** The clone the test item is filed on. */
  repo: string;
  /** What the test server's environment adds: where its command stubs are, when there are any. */
  env: Record<string, string>;
}

const DRAFT_FILE = /^(chains\/[a-z][a-z0-9_-]*\.yaml|library\.yaml)$/;

/** Files of the config folder a run reads; everything else is left behind on purpose. */
const COPIED = ['chains', 'library.yaml', 'policy.yaml'];

function harnessesFor(source: string, agent: string): string {
  const doc = parseDocument(readFileSync(source, 'utf8'));
  const ids = Object.keys((doc.toJS() as { harnesses?: Record<string, unknown> }).harnesses ?? {});
  for (const id of ids) {
    // Each harness keeps its id (chains name them) and speaks as Claude Code does: the scripted
    // agent's stream. A profile then reads its `claude` models; the agent ignores them.
    doc.setIn(['harnesses', id, 'provider'], 'claude');
    doc.setIn(['harnesses', id, 'executable'], agent);
    doc.setIn(['harnesses', id, 'enabled'], true);
  }
  return doc.toString();
}

export function prepareTestHome(opts: {
  dir: string;
  configDir: string;
  addonsDir: string;
  repo: RepoEntry;
  agents: AgentScript;
  commands: CommandStubs;
  overlay?: Record<string, string | null>;
}): TestHome {
  const home = join(opts.dir, 'home');
  const config = join(home, 'config');
  mkdirSync(config, { recursive: true });
  for (const name of COPIED) {
    const from = join(opts.configDir, name);
    if (existsSync(from)) cpSync(from, join(config, name), { recursive: true });
  }
  for (const [file, text] of Object.entries(opts.overlay ?? {})) {
    // A draft of the chains area holds chain files and library.yaml, nothing else.
    if (!DRAFT_FILE.test(file)) throw new Error(`a draft file ${file} is not a chain or the library`);
    const to = join(config, file);
    if (text === null) rmSync(to, { force: true });
    else {
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, text);
    }
  }
  const policy = join(config, 'policy.yaml');
  if (existsSync(policy)) {
    const doc = parseDocument(readFileSync(policy, 'utf8'));
    doc.delete('triggers');
    writeFileSync(policy, doc.toString());
  }
  if (existsSync(opts.addonsDir)) cpSync(opts.addonsDir, join(home, 'addons'), { recursive: true });
  const agent = writeScriptedAgent(join(opts.dir, 'agent'), opts.agents);
  writeFileSync(join(config, 'harnesses.yaml'), harnessesFor(join(opts.configDir, 'harnesses.yaml'), agent));
  const repo = join(opts.dir, 'repo');
  // --shared: the clone borrows the real repository's objects and writes only its own.
  execFileSync('git', ['clone', '--quiet', '--shared', '--no-tags', opts.repo.path, repo], { stdio: 'pipe' });
  // No way back: a push or a forge task in the run finds no remote to reach the real repository by.
  execFileSync('git', ['-C', repo, 'remote', 'remove', 'origin'], { stdio: 'pipe' });
  const { path: _path, name: _name, ...settings } = opts.repo;
  writeFileSync(join(config, 'repos.yaml'), stringify({ repos: [{ ...settings, path: repo }] }));
  const env: Record<string, string> = {};
  if (Object.keys(opts.commands).length > 0) {
    const file = join(opts.dir, 'agent', 'commands.json');
    const state = join(opts.dir, 'agent', 'command-sessions');
    mkdirSync(state, { recursive: true });
    writeFileSync(file, JSON.stringify({ commands: opts.commands, state }));
    env[STUBS_VARIABLE] = file;
  }
  return { home, repo, env };
}
