import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { writeScriptedAgent } from '../src/runtime/chain-test/scripted-harness.js';
import { agentSetup, harnessesYaml, sessions } from './helpers/agents.js';
import { events, fileItem, until } from './helpers/engine.js';
import { ofType } from './helpers/fix-loop.js';
import { buildChain, singleTask } from './helpers/chain-tests.js';
import { cleanupAll, http } from './helpers/server.js';

afterAll(cleanupAll);

/*
 * Issue 51: the agent of a chain test answers from a script, attempt by attempt, and the real engine
 * reads it as it reads Claude Code: usage and reported cost on the session, the result file's
 * status and findings driving the fix loop, files committed in the worktree.
 */

const chain = buildChain(false);

describe('the scripted agent', () => {
  it('answers each session from the script: spend, findings through a fix loop, files committed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jig-scripted-'));
    const agent = writeScriptedAgent(dir, {
      tasks: {
        'build.main.code': [
          {
            status: 'done',
            files: { 'feature.txt': 'v1\n' },
            commit_message: 'feat: the feature',
            cost_usd: 0.1,
            tokens: { input: 1000, output: 100, cache_read: 0, cache_write: 0 },
          },
          { status: 'done' },
        ],
        'build.main.check': [
          { status: 'done', findings: [{ severity: 'important', message: 'feature.txt says v1' }] },
          { status: 'done', findings: [] },
        ],
        'build.fix_loop.main.repair': { status: 'done', files: { 'feature.txt': 'v2\n' }, cost_usd: 0.05 },
      },
    });
    const { jig, repo } = await agentSetup(
      { scripted: chain },
      { harnesses: harnessesYaml({ claude: agent }) },
    );
    const item = await fileItem(jig, repo, 'scripted');
    const done = await until(jig, item.id, (i) => i.status !== 'running' && i.status !== 'queued');
    expect({ status: done.status, stop: done.stop }).toEqual({ status: 'completed', stop: null });

    const ss = await sessions(jig, item.id);
    // Tasks of a step start at once: their order among themselves is theirs, so compared sorted.
    expect(
      ss
        .map(
          (s: any) =>
            `${s.task_path} ${s.status} ${s.cost_usd} ${s.cost_source} ${s.tokens.input + s.tokens.output}`,
        )
        .sort(),
    ).toEqual([
      'build.fix_loop.main.repair done 0.05 reported 0',
      // The node is measured again: each of its tasks runs a second time, on its second answer.
      'build.main.check done 0 reported 0',
      'build.main.check done 0 reported 0',
      'build.main.code done 0 reported 0',
      'build.main.code done 0.1 reported 1100',
    ]);
    expect(done.spent_usd).toBeCloseTo(0.15, 10);

    const ev = await events(jig, item.id);
    expect(ofType(ev, 'findings_measured').map((e) => e.payload.findings.map((f: any) => f.message))).toEqual(
      [['feature.txt says v1'], []],
    );
    // The worktree's branch holds the two scripted commits, the repair's on top.
    const log = execFileSync('git', ['log', '--format=%s', '-2', done.branch], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(log.trim().split('\n')).toEqual([
      'build.fix_loop.main.repair: scripted change',
      'feat: the feature',
    ]);
    expect(execFileSync('git', ['show', `${done.branch}:feature.txt`], { cwd: repo, encoding: 'utf8' })).toBe(
      'v2\n',
    );
  });

  it('fails a session the script has no answer for, saying so, and refuses a file outside the worktree', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jig-scripted-'));
    const agent = writeScriptedAgent(dir, {
      tasks: { 'one.main.code': { status: 'done', files: { '../escape.txt': 'x' } } },
    });
    const { jig, repo } = await agentSetup(
      { one: singleTask('one'), two: singleTask('two') },
      { harnesses: harnessesYaml({ claude: agent }) },
    );
    const ended = (i: any) => i.status !== 'running' && i.status !== 'queued';
    const noted = async (chainId: string) => {
      const item = await fileItem(jig, repo, chainId);
      const done = await until(jig, item.id, ended);
      const ss = await sessions(jig, item.id);
      const log = await http(`${jig.url}/api/work-items/${item.id}/sessions/${ss[0].id}/log`);
      return {
        status: done.status,
        kind: done.stop?.kind,
        sessions: ss.map((s: any) => [s.task_path, s.status, s.note]),
        log: log.text,
      };
    };
    const one = await noted('one');
    expect({ ...one, log: undefined }).toEqual({
      status: 'stopped',
      kind: 'failed',
      sessions: [['one.main.code', 'failed', 'the agent exited 2 without writing its result file']],
      log: undefined,
    });
    expect(one.log).toContain('scripted agent: files: ../escape.txt is outside the worktree');
    const two = await noted('two');
    expect({ ...two, log: undefined }).toEqual({
      status: 'stopped',
      kind: 'failed',
      sessions: [
        [
          'two.main.code',
          'failed',
          'the CLI reported an error: the script has no answer for two.main.code (session 1)',
        ],
      ],
      log: undefined,
    });
  });
});
