import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentSetup, jsonLines, sessions } from './helpers/agents.js';
import { events, fileItem, post, until } from './helpers/engine.js';
import { git } from './helpers/git.js';
import { cleanupAll, http } from './helpers/server.js';

afterAll(cleanupAll);

/** One fake Claude for the whole seeded chain: each task is told apart by its own prompt. */
function script(dir: string): string {
  const p = join(dir, 'script.json');
  writeFileSync(
    p,
    JSON.stringify({
      rules: [
        {
          match: 'Write a specification',
          mode: 'done',
          tokens: '3000,600',
          artifact: '# Spec\n\nAdd a greeting.\n',
        },
        {
          match: 'Turn the approved spec',
          mode: 'done',
          tokens: '2000,400',
          artifact: '# Plan\n\n1. Edit.\n',
        },
        { match: 'Implement the approved plan', mode: 'fix', tokens: '8000,1500' },
        { match: 'Review the change in the review package', mode: 'done', tokens: '2500,300', findings: [] },
        {
          match: 'Write a work brief',
          mode: 'done',
          tokens: '1500,300',
          artifact: '# Brief\n\nOne change.\n',
        },
      ],
      default: { mode: 'fail' },
    }),
  );
  return p;
}

const ended = (i: any) => i.status !== 'running' && i.status !== 'queued';

describe('the seeded default chain with the fake Claude Code', () => {
  it('spec, approved; plan, approved; implementation commits; verification passes; brief; completed with its spend', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jig-default-'));
    const { jig, repo } = await agentSetup(
      {},
      {
        testCommand: 'test -f fake-agent-change.txt',
        env: { FAKE_AGENT_SCRIPT: script(dir), FAKE_AGENT_PROMPT_LOG: join(dir, 'prompts.jsonl') },
      },
    );
    const item = await fileItem(jig, repo, 'default');

    let at = await until(jig, item.id, ended);
    expect(at.stop, JSON.stringify(at)).toMatchObject({ kind: 'gate' });
    expect(at.current_node).toBe('spec_approval');
    const spec = await http(`${jig.url}/api/work-items/${item.id}/artifact`);
    expect(spec.status).toBe(200);
    expect(spec.json).toMatchObject({
      gate: 'spec_approval',
      kind: 'spec',
      text: '# Spec\n\nAdd a greeting.\n',
    });
    expect((await post(jig, `/api/work-items/${item.id}/gates/spec_approval/approve`)).status).toBe(200);

    at = await until(jig, item.id, (i) => ended(i) && i.current_node === 'plan_approval');
    expect(at.stop.kind).toBe('gate');
    expect((await http(`${jig.url}/api/work-items/${item.id}/artifact`)).json.text).toBe(
      '# Plan\n\n1. Edit.\n',
    );
    expect((await post(jig, `/api/work-items/${item.id}/gates/plan_approval/approve`)).status).toBe(200);

    at = await until(jig, item.id, (i) => ended(i) && i.current_node === 'local_review');
    expect(at.stop.kind, JSON.stringify(at.stop)).toBe('gate');
    expect((await http(`${jig.url}/api/work-items/${item.id}/artifact`)).json).toMatchObject({
      kind: 'work_brief',
      text: '# Brief\n\nOne change.\n',
    });
    expect((await post(jig, `/api/work-items/${item.id}/gates/local_review/approve`)).status).toBe(200);
    const done = await until(jig, item.id, ended);
    expect(done.status).toBe('completed');

    const ss = await sessions(jig, item.id);
    expect(ss.map((s) => [s.task_path, s.status])).toEqual([
      ['spec.main.author', 'done'],
      ['plan.main.author', 'done'],
      ['implementation.main.implement', 'done'],
      ['verification.tests.verify', 'done'],
      ['verification.review.code_review', 'done'],
      ['work_brief.main.author', 'done'],
    ]);
    // The implementer ran on the `strong` profile: sonnet at high effort.
    const prompts = jsonLines(join(dir, 'prompts.jsonl'));
    expect(prompts.find((p) => p.prompt.includes('Implement the approved plan'))).toMatchObject({
      model: 'sonnet',
    });
    // Skills reach the system prompt; a document task is told where to write.
    const specPrompt = prompts.find((p) => p.prompt.includes('Write a specification'));
    expect(specPrompt.system_prompt).toContain('# Writing a specification');
    expect(specPrompt.system_prompt).toContain('$JIG_ARTIFACT_PATH');
    // Spend: every agent session's reported dollars add up on the item.
    const agentSessions = ss.filter((s) => s.kind === 'agent');
    const total = agentSessions.reduce((sum, s) => sum + s.cost_usd, 0);
    expect(agentSessions.every((s) => s.cost_source === 'reported')).toBe(true);
    expect(done.spent_usd).toBeCloseTo(total, 6);
    expect(done.spent_tokens).toBe(3600 + 2400 + 9500 + 2800 + 1800);
    // The change is committed on the item's branch; the documents are not.
    expect(git(repo, 'log', '--format=%s', '-1', done.branch).trim()).toBe('fake claude: fix');
    expect(git(repo, 'show', '--stat', '--format=', done.branch)).not.toContain('.jig');
    const types = (await events(jig, item.id)).map((e) => e.type);
    expect(types.filter((t) => t === 'gate_approved')).toHaveLength(3);
  });
});
