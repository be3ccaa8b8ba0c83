import { afterAll, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, runJig } from './helpers/server.js';
import { serverFor } from './helpers/shared-home.js';

/*
 * Issue 48: a chain that needs an agent nobody installed is caught before it is filed. The dry run
 * (API, CLI, MCP through the same client) names each agent task that cannot launch here, and a repo
 * connected on a machine with no agent CLI is proposed `manual`.
 */

afterAll(cleanupAll);

/** Every harness pointed at a CLI that is not there: a machine with no agent installed. */
const NOTHING = '/nonexistent/jig-test';
const none = harnessesYaml(
  Object.fromEntries(
    ['claude', 'codex', 'gemini', 'cursor', 'opencode', 'amp', 'antigravity'].map((h) => [
      h,
      `${NOTHING}/${h}`,
    ]),
  ),
);

const TWO = `
nodes:
  - id: plan
    kind: exec
    tasks:
      - id: write
        kind: agent
        harness: claude
        prompt: Plan it.
        fallback:
          - harness: codex
  - id: ok
    kind: gate
  - id: build
    kind: exec
    tasks:
      - id: code
        kind: agent
        harness: claude
        prompt: Build it.
      - id: lint
        kind: subprocess
        run: 'true'
`;

describe('launches that cannot start here', () => {
  it('names each agent task of the nodes that run, every fallback too; a new repo is proposed manual', async () => {
    const { jig, home } = await serverFor(
      { chains: { two: TWO }, harnesses: none },
      { home: undefined, env: {} },
    );
    const repo = makeRepo();
    const probe = await http(`${jig.url}/api/repos/probe`, { method: 'POST', body: { path: repo } });
    expect(probe.json.default_chain).toEqual({
      value: 'manual',
      reason: 'no agent CLI is installed here (harnesses.yaml)',
    });
    const connected = await http(`${jig.url}/api/repos`, {
      method: 'POST',
      body: { path: repo, test_command: '', setup_command: '' },
    });
    expect(connected.status, connected.text).toBe(201);
    expect(connected.json.default_chain).toBe('manual');

    const dry = await http(`${jig.url}/api/work-items?dry_run=1`, {
      method: 'POST',
      body: { title: 'Try', repo, chain: 'two' },
    });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.json.would_file.cannot_launch).toEqual([
      {
        node: 'plan',
        task: 'plan.main.write',
        reason: `claude: ${NOTHING}/claude is not installed here (not on PATH); codex: ${NOTHING}/codex is not installed here (not on PATH)`,
      },
      {
        node: 'build',
        task: 'build.main.code',
        reason: `claude: ${NOTHING}/claude is not installed here (not on PATH)`,
      },
    ]);
    // A node the item passes launches nothing.
    const skipping = await http(`${jig.url}/api/work-items?dry_run=1`, {
      method: 'POST',
      body: { title: 'Try', repo, chain: 'two', skip_nodes: ['plan'] },
    });
    expect(skipping.json.would_file.cannot_launch.map((p: { task: string }) => p.task)).toEqual([
      'build.main.code',
    ]);

    const cli = await runJig(['item', 'create', 'Try', '--repo', repo, '--chain', 'two', '--dry-run'], {
      JIG_HOME: home,
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toBe(
      [
        'would file "Try" on two, paused: 3 of 3 nodes run, 1 gate',
        '2 agent task(s) cannot start on this machine:',
        `  claude: ${NOTHING}/claude is not installed here (not on PATH); codex: ${NOTHING}/codex is not installed here (not on PATH) (plan.main.write)`,
        `  claude: ${NOTHING}/claude is not installed here (not on PATH) (build.main.code)`,
        'install the agent CLI, or pass --chain manual (a chain that needs none)',
        '',
      ].join('\n'),
    );
    const total = (await http(`${jig.url}/api/work-items?limit=1`)).json.total;
    expect(total).toBe(0);
  });

  it('is empty, and a new repo gets default, where the agent CLIs are installed', async () => {
    const { jig } = await serverFor({ chains: { two: TWO }, harnesses: harnessesYaml() }, { env: {} });
    const repo = makeRepo();
    const r = await http(`${jig.url}/api/repos`, {
      method: 'POST',
      body: { path: repo, test_command: '', setup_command: '' },
    });
    expect(r.json.default_chain).toBe('default');
    const dry = await http(`${jig.url}/api/work-items?dry_run=1`, {
      method: 'POST',
      body: { title: 'Try', repo, chain: 'two' },
    });
    expect(dry.json.would_file.cannot_launch).toEqual([]);
  });
});
