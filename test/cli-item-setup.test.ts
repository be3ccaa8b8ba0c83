import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { events, until } from './helpers/engine.js';
import { cleanupAll, http, runJig, tempHome, type JigProcess } from './helpers/server.js';

/*
 * `jig item set-chain|set-attachments|set-overrides|set-node-override|set-policy`, run as the real
 * CLI against a real server (fake agent CLIs) and a real git repository; every change is read back
 * with GET.
 */

let jig: JigProcess;
let repo: string;
const api = (method: string, path: string, body?: unknown) => http(`${jig.url}${path}`, { method, body });
const cli = (...args: string[]) => runJig(args, { JIG_HOME: jig.home });
const usage = (stderr: string) => ({ code: 2, stdout: '', stderr: `jig: ${stderr}\n` });

const items: string[] = [];
async function newItem(chain = 'default', start = false): Promise<any> {
  const r = await api('POST', '/api/work-items', { title: 'Setup under test', repo, chain, start });
  expect(r.status, r.text).toBe(201);
  items.push(r.json.id);
  return r.json;
}
const read = async (id: string): Promise<any> => (await api('GET', `/api/work-items/${id}`)).json;
const types = async (id: string): Promise<string[]> => (await events(jig, id)).map((e) => e.type);

beforeAll(async () => {
  // The fake agents sleep, so a started item stays running at its first node.
  ({ jig, repo } = await agentSetup(
    {},
    {
      env: { FAKE_AGENT_MODE: 'sleep' },
      repoFiles: { 'README.md': '# demo\n', 'docs/spec.md': '# The spec\n', 'docs/plan.md': '# The plan\n' },
    },
  ));
});
afterAll(async () => {
  // The sleeping fake agents outlive the server (as task processes do): a cancel ends them.
  for (const id of items) await api('POST', `/api/work-items/${id}/cancel`, { reason: 'test over' });
  await cleanupAll();
});

describe('set-chain', () => {
  it('changes the chain of an item not started, prints one line, --json the item', async () => {
    const item = await newItem();
    expect(await cli('item', 'set-chain', item.id, '--chain', 'quick-task')).toEqual({
      code: 0,
      stdout: `${item.id} runs chain quick-task\n`,
      stderr: '',
    });
    expect((await read(item.id)).chain).toBe('quick-task');
    const json = await cli('item', 'set-chain', item.id, '--template', 'default', '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(await read(item.id));
    expect((await read(item.id)).chain).toBe('default');
    expect(await types(item.id)).toEqual(['work_item_created', 'chain_changed', 'chain_changed']);
  });

  it('refuses a missing or unknown chain, and two names for it, by name', async () => {
    const item = await newItem();
    expect(await cli('item', 'set-chain', item.id)).toEqual(usage('set-chain needs --chain ID'));
    expect(await cli('item', 'set-chain', item.id, '--chain', 'a', '--template', 'b')).toEqual(
      usage('--chain and --template name different chains; pass one'),
    );
    expect(await cli('item', 'set-chain', item.id, '--chain', 'nope')).toEqual(
      usage(
        'chain nope names no chain in the library (chains: default, manual, merge-request, quick-task) (HTTP 422, chain_unknown)',
      ),
    );
    expect(await cli('item', 'set-chain', 'zzzzzzzz', '--chain', 'quick-task')).toEqual(
      usage('no work item zzzzzzzz (HTTP 404, item_not_found)'),
    );
    expect((await read(item.id)).chain).toBe('default');
  });
});

describe('set-attachments', () => {
  it('attaches a spec and a plan from files in the repository, then drops them', async () => {
    const item = await newItem();
    const set = await cli(
      'item',
      'set-attachments',
      item.id,
      '--spec',
      join(repo, 'docs/spec.md'),
      '--plan',
      join(repo, 'docs/plan.md'),
    );
    expect(set).toEqual({ code: 0, stdout: `attachments of ${item.id}: spec, plan\n`, stderr: '' });
    const after = await read(item.id);
    expect(after.attachments.spec).toMatchObject({
      kind: 'spec',
      source: 'path',
      path: 'docs/spec.md',
      bytes: 11,
    });
    expect(after.attachments.plan).toMatchObject({
      kind: 'plan',
      source: 'path',
      path: 'docs/plan.md',
      bytes: 11,
    });
    expect((await http(`${jig.url}/api/work-items/${item.id}/attachments/spec`)).text).toBe('# The spec\n');

    const drop = await cli('item', 'set-attachments', item.id, '--drop', 'spec');
    expect(drop).toEqual({ code: 0, stdout: `attachments of ${item.id}: plan\n`, stderr: '' });
    expect(Object.keys((await read(item.id)).attachments)).toEqual(['plan']);
    await cli('item', 'set-attachments', item.id, '--drop', 'plan');
    expect((await read(item.id)).attachments).toEqual({});
  });

  it('refuses a bad kind, a file outside the repository, contradictions and nothing to do', async () => {
    const item = await newItem();
    const kind = await cli('item', 'set-attachments', item.id, '--drop', 'readme');
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain("option '--drop <kind>' argument 'readme' is invalid");
    expect(kind.stderr).toContain('readme is not an attachment kind (spec or plan)');
    const outside = join(tempHome(), 'spec.md');
    writeFileSync(outside, '# elsewhere\n');
    expect(await cli('item', 'set-attachments', item.id, '--spec', outside)).toEqual(
      usage(`--spec ${outside}: ${outside} is not inside ${repo}`),
    );
    expect(
      await cli('item', 'set-attachments', item.id, '--spec', join(repo, 'docs/spec.md'), '--drop', 'spec'),
    ).toEqual(usage('--spec and --drop spec contradict; pass one'));
    expect(await cli('item', 'set-attachments', item.id)).toEqual(
      usage('set-attachments needs --spec FILE, --plan FILE or --drop KIND'),
    );
    expect((await read(item.id)).attachments).toEqual({});
  });
});

describe('set-overrides', () => {
  it('replaces the item override with the values given, and --clear drops it', async () => {
    const item = await newItem();
    expect(await cli('item', 'set-overrides', item.id, '--model', 'opus', '--effort', 'high')).toEqual({
      code: 0,
      stdout: `overrides of ${item.id}: model=opus effort=high\n`,
      stderr: '',
    });
    expect((await read(item.id)).agent_overrides).toEqual({ model: 'opus', effort: 'high' });
    await cli('item', 'set-overrides', item.id, '--escalate-model', 'gpt-5');
    expect((await read(item.id)).agent_overrides).toEqual({ escalate_model: 'gpt-5' });
    expect(await cli('item', 'set-overrides', item.id, '--clear')).toEqual({
      code: 0,
      stdout: `overrides of ${item.id}: none\n`,
      stderr: '',
    });
    expect((await read(item.id)).agent_overrides).toEqual({});
    expect((await types(item.id)).filter((t) => t === 'agent_overrides_changed')).toHaveLength(3);
  });

  it('refuses a model that is not a model id, --clear with values, and nothing to set', async () => {
    const item = await newItem();
    expect(await cli('item', 'set-overrides', item.id, '--model', 'bad model')).toEqual(
      usage('agent_overrides.model: "bad model" is not a model id (HTTP 422, invalid_model_override)'),
    );
    expect(await cli('item', 'set-overrides', item.id, '--clear', '--model', 'opus')).toEqual(
      usage('--clear drops the override; pass it alone or pass the values to set'),
    );
    expect(await cli('item', 'set-overrides', item.id)).toEqual(
      usage('set-overrides needs --model, --effort, --escalate-model or --clear'),
    );
    expect(await cli('item', 'set-overrides', item.id, '--effort', ' ')).toEqual(usage('--effort is empty'));
    expect((await read(item.id)).agent_overrides).toEqual({});
  });
});

describe('set-node-override before the item starts', () => {
  it("sets and merges the node's entry with PATCH; --clear drops it first", async () => {
    const item = await newItem();
    expect(
      await cli('item', 'set-node-override', item.id, '--node', 'implementation', '--model', 'sonnet'),
    ).toEqual({
      code: 0,
      stdout: `node override of ${item.id} implementation: model=sonnet\n`,
      stderr: '',
    });
    await cli('item', 'set-node-override', item.id, '--node', 'plan', '--effort', 'low');
    await cli('item', 'set-node-override', item.id, '--node', 'implementation', '--effort', 'high');
    expect((await read(item.id)).node_overrides).toEqual({
      implementation: { model: 'sonnet', effort: 'high' },
      plan: { effort: 'low' },
    });
    await cli('item', 'set-node-override', item.id, '--node', 'implementation', '--clear', '--model', 'opus');
    expect((await read(item.id)).node_overrides).toEqual({
      implementation: { model: 'opus' },
      plan: { effort: 'low' },
    });
    const json = await cli('item', 'set-node-override', item.id, '--node', 'plan', '--clear', '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).node_overrides).toEqual({ implementation: { model: 'opus' } });
    expect((await read(item.id)).node_overrides).toEqual({ implementation: { model: 'opus' } });
  });

  it('sets extra_prompt and the escalation settings; --clear with one setting replaces the entry', async () => {
    const item = await newItem();
    const set = await cli(
      'item',
      'set-node-override',
      item.id,
      '--node',
      'plan',
      '--extra-prompt',
      '  Keep the plan to one page.  ',
      '--no-auto-escalate',
      '--auto-escalate-stuck',
      '--auto-escalate-delay-s',
      '30',
    );
    expect(set).toEqual({
      code: 0,
      stdout: `node override of ${item.id} plan: extra_prompt=Keep the plan to one page. auto_escalate=false auto_escalate_stuck=true auto_escalate_delay_s=30\n`,
      stderr: '',
    });
    expect((await read(item.id)).node_overrides).toEqual({
      plan: {
        extra_prompt: 'Keep the plan to one page.',
        auto_escalate: false,
        auto_escalate_stuck: true,
        auto_escalate_delay_s: 30,
      },
    });
    // A setting given later merges into the entry; --auto-escalate turns the switch back on.
    await cli('item', 'set-node-override', item.id, '--node', 'plan', '--model', 'opus', '--auto-escalate');
    expect((await read(item.id)).node_overrides).toEqual({
      plan: {
        extra_prompt: 'Keep the plan to one page.',
        auto_escalate: true,
        auto_escalate_stuck: true,
        auto_escalate_delay_s: 30,
        model: 'opus',
      },
    });
    const cleared = await cli(
      'item',
      'set-node-override',
      item.id,
      '--node',
      'plan',
      '--clear',
      '--no-auto-escalate-stuck',
      '--json',
    );
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(JSON.parse(cleared.stdout).node_overrides).toEqual({ plan: { auto_escalate_stuck: false } });
    expect((await read(item.id)).node_overrides).toEqual({ plan: { auto_escalate_stuck: false } });
    expect((await types(item.id)).filter((t) => t === 'node_overrides_changed')).toHaveLength(3);
  });

  it('PATCH refuses a setting of the wrong type naming the field; nothing is stored', async () => {
    const item = await newItem();
    const r = await api('PATCH', `/api/work-items/${item.id}`, {
      node_overrides: { plan: { auto_escalate: 'yes' } },
    });
    expect([r.status, r.json]).toEqual([
      422,
      {
        detail: 'body.node_overrides.plan.auto_escalate: Invalid input: expected boolean, received string',
        code: 'validation_failed',
        issues: [
          {
            field: 'body.node_overrides.plan.auto_escalate',
            message: 'Invalid input: expected boolean, received string',
          },
        ],
      },
    ]);
    expect((await read(item.id)).node_overrides).toEqual({});
    expect(await types(item.id)).toEqual(['work_item_created']);
  });

  it("refuses a node the chain lacks, a gate, the original's other settings and a bad model", async () => {
    const item = await newItem();
    expect(await cli('item', 'set-node-override', item.id, '--node', 'nope', '--model', 'opus')).toEqual(
      usage(
        '--node nope: chain default has no node nope (its nodes: spec, spec_approval, plan, plan_approval, implementation, verification, work_brief, local_review)',
      ),
    );
    expect(
      await cli('item', 'set-node-override', item.id, '--node', 'spec_approval', '--model', 'opus'),
    ).toEqual(usage('--node spec_approval is a gate: it runs no agent task'));
    expect(await cli('item', 'set-node-override', item.id, '--model', 'opus')).toEqual(
      usage('set-node-override needs --node ID'),
    );
    expect(await cli('item', 'set-node-override', item.id, '--node', 'plan')).toEqual(
      usage(
        'set-node-override needs --model, --effort, --extra-prompt, --[no-]auto-escalate, --[no-]auto-escalate-stuck, --auto-escalate-delay-s or --clear',
      ),
    );
    expect(
      await cli('item', 'set-node-override', item.id, '--node', 'plan', '--auto-escalate-delay-s', '1.5'),
    ).toEqual(usage('--auto-escalate-delay-s takes whole seconds from 0 to 86400'));
    expect(await cli('item', 'set-node-override', item.id, '--node', 'plan', '--extra-prompt', ' ')).toEqual(
      usage('--extra-prompt is empty'),
    );
    expect(await cli('item', 'set-node-override', item.id, '--node', 'plan', '--model', 'a b')).toEqual(
      usage('node_overrides.plan.model: "a b" is not a model id (HTTP 422, invalid_model_override)'),
    );
    expect((await read(item.id)).node_overrides).toEqual({});
  });
});

describe('set-policy', () => {
  it('replaces the whole policy override with the --policy values, read as YAML; --clear drops it', async () => {
    const item = await newItem();
    const set = await cli(
      'item',
      'set-policy',
      item.id,
      '--policy',
      'verification.max_attempts=3',
      '--policy',
      'implementation.time_cap_minutes=45.5',
    );
    expect(set).toEqual({
      code: 0,
      stdout: `policy override of ${item.id}: verification.max_attempts=3 implementation.time_cap_minutes=45.5\n`,
      stderr: '',
    });
    expect((await read(item.id)).policy_override).toEqual({
      'verification.max_attempts': 3,
      'implementation.time_cap_minutes': 45.5,
    });
    await cli('item', 'set-policy', item.id, '--policy', 'verification.review.token_budget=50000');
    expect((await read(item.id)).policy_override).toEqual({ 'verification.review.token_budget': 50000 });
    expect(await cli('item', 'set-policy', item.id, '--clear')).toEqual({
      code: 0,
      stdout: `policy override of ${item.id}: none\n`,
      stderr: '',
    });
    expect((await read(item.id)).policy_override).toEqual({});
  });

  it('refuses each bad --policy by name, before sending anything', async () => {
    const item = await newItem();
    const cases: [string, string][] = [
      ['max_attempts=3', 'max_attempts is not PATH.FIELD'],
      ['verification.max_attempts', 'expected PATH.FIELD=VALUE'],
      ['verification.colour=3', 'colour is not one of max_attempts, timeout_minutes'],
      ['verification.max_attempts=abc', 'verification.max_attempts must be a positive integer'],
      ['verification.max_attempts=2.5', 'verification.max_attempts must be a positive integer'],
      ['verification.budget_usd=-1', 'verification.budget_usd must be a positive number'],
      ['verification.max_attempts=[', 'the value of verification.max_attempts is not YAML'],
      ['Verification.max_attempts=3', 'Verification.max_attempts is not PATH.FIELD'],
    ];
    for (const [arg, message] of cases) {
      const r = await cli('item', 'set-policy', item.id, '--policy', arg);
      expect(r.code, arg).toBe(2);
      expect(r.stderr, arg).toContain(`option '--policy <PATH.FIELD=VALUE>' argument '${arg}' is invalid`);
      expect(r.stderr, arg).toContain(message);
      expect(r.stderr, arg).not.toMatch(/\n\s+at /);
    }
    expect(
      await cli(
        'item',
        'set-policy',
        item.id,
        '--policy',
        'plan.max_attempts=2',
        '--policy',
        'plan.max_attempts=3',
      ),
    ).toEqual(usage('--policy plan.max_attempts is given twice'));
    expect(await cli('item', 'set-policy', item.id, '--clear', '--policy', 'plan.max_attempts=2')).toEqual(
      usage('--clear drops the whole override; pass it alone or pass --policy values'),
    );
    expect(await cli('item', 'set-policy', item.id)).toEqual(
      usage('set-policy needs --policy PATH.FIELD=VALUE (repeatable) or --clear'),
    );
    expect((await read(item.id)).policy_override).toEqual({});
    expect(await types(item.id)).toEqual(['work_item_created']);
  });
});

describe('an ended item', () => {
  it('refuses every setup verb with the 409 as one line, and nothing changes', async () => {
    const item = await newItem();
    expect((await api('POST', `/api/work-items/${item.id}/cancel`, { reason: 'test' })).status).toBe(200);
    const refusal = usage(
      'the item is cancelled; only its title and description can change (HTTP 409, item_wrong_status)',
    );
    const verbs = [
      ['set-chain', item.id, '--chain', 'quick-task'],
      ['set-attachments', item.id, '--drop', 'spec'],
      ['set-overrides', item.id, '--model', 'opus'],
      ['set-node-override', item.id, '--node', 'plan', '--model', 'opus'],
      ['set-policy', item.id, '--policy', 'plan.max_attempts=2'],
    ];
    for (const args of verbs) expect(await cli('item', ...args), args[0]).toEqual(refusal);
    const after = await read(item.id);
    expect(after).toMatchObject({
      chain: 'default',
      attachments: {},
      agent_overrides: {},
      node_overrides: {},
      policy_override: {},
    });
    expect(await types(item.id)).toEqual(['work_item_created', 'work_item_cancelled']);
  });
});

/** The agent tasks of one node of a chain in the `chain_definition` shape. */
function agentTasks(nodes: any[], id: string): any[] {
  const node = nodes.find((n) => n.id === id);
  return node.steps.flatMap((s: any) => s.tasks).filter((t: any) => t.kind === 'agent');
}

describe('set-node-override on a running item', () => {
  it('goes through the item draft: applied to the chain, the stored entry no longer shadowing it', async () => {
    const item = await newItem();
    await cli('item', 'set-node-override', item.id, '--node', 'implementation', '--model', 'sonnet');
    expect((await api('POST', `/api/work-items/${item.id}/resume`, {})).status).toBe(200);
    await until(jig, item.id, (i) => i.status === 'running' && i.current_node === 'spec');

    expect(await cli('item', 'set-chain', item.id, '--chain', 'quick-task')).toEqual(
      usage('the item has started; its chain changes through an item draft (HTTP 409, chain_frozen)'),
    );

    const set = await cli(
      'item',
      'set-node-override',
      item.id,
      '--node',
      'implementation',
      '--model',
      'opus',
      '--effort',
      'high',
    );
    expect(set).toEqual({
      code: 0,
      stdout: `node override of ${item.id} implementation: model=opus effort=high (applied to the item's chain; a running item takes it at its next node)\n`,
      stderr: '',
    });
    const draft = (await api('GET', `/api/work-items/${item.id}/draft`)).json;
    expect(draft.ops).toEqual([]);
    const tasks = agentTasks(draft.nodes, 'implementation');
    expect(tasks.length).toBeGreaterThan(0);
    for (const t of tasks) {
      expect(t).toMatchObject({ model: 'opus', effort: 'high' });
      expect(t.profile).toBeUndefined();
    }
    // The entry stored before the start would outrank the chain's model: it is dropped.
    expect((await read(item.id)).node_overrides).toEqual({});
    const revised = (await events(jig, item.id)).filter((e) => e.type === 'chain_revised');
    expect(revised).toHaveLength(1);
    expect(revised[0].payload).toMatchObject({ source: 'draft' });
    expect((await read(item.id)).status).toBe('running');
  });

  it('stores --extra-prompt alone in the entry with PATCH; --model with --extra-prompt applies both', async () => {
    const item = await newItem('default', true);
    await until(jig, item.id, (i) => i.status === 'running' && i.current_node === 'spec');

    expect(
      await cli('item', 'set-node-override', item.id, '--node', 'plan', '--extra-prompt', 'Cite the spec.'),
    ).toEqual({
      code: 0,
      stdout: `node override of ${item.id} plan: extra_prompt=Cite the spec.\n`,
      stderr: '',
    });
    expect((await read(item.id)).node_overrides).toEqual({ plan: { extra_prompt: 'Cite the spec.' } });
    // The setting is the item's own: no draft, no chain revision.
    expect((await api('GET', `/api/work-items/${item.id}/draft`)).json.ops).toEqual([]);
    expect((await events(jig, item.id)).some((e) => e.type === 'chain_revised')).toBe(false);

    const both = await cli(
      'item',
      'set-node-override',
      item.id,
      '--node',
      'implementation',
      '--model',
      'opus',
      '--extra-prompt',
      'Run the tests first.',
    );
    expect(both).toEqual({
      code: 0,
      stdout: `node override of ${item.id} implementation: model=opus extra_prompt=Run the tests first. (applied to the item's chain; a running item takes it at its next node)\n`,
      stderr: '',
    });
    const draft = (await api('GET', `/api/work-items/${item.id}/draft`)).json;
    expect(draft.ops).toEqual([]);
    const tasks = agentTasks(draft.nodes, 'implementation');
    expect(tasks.length).toBeGreaterThan(0);
    for (const t of tasks) expect(t.model).toBe('opus');
    // The model went into the chain; the extra prompt into the item's entry, beside the plan's.
    expect((await read(item.id)).node_overrides).toEqual({
      plan: { extra_prompt: 'Cite the spec.' },
      implementation: { extra_prompt: 'Run the tests first.' },
    });
    expect((await events(jig, item.id)).filter((e) => e.type === 'chain_revised')).toHaveLength(1);
    expect((await read(item.id)).status).toBe('running');
  });

  it('refuses a node already reached, a problem, a node the chain lacks and a draft in the way, leaving no draft', async () => {
    const item = await newItem('default', true);
    await until(jig, item.id, (i) => i.status === 'running' && i.current_node === 'spec');
    const noDraft = async () =>
      expect((await api('GET', `/api/work-items/${item.id}/draft`)).json.ops).toEqual([]);

    expect(await cli('item', 'set-node-override', item.id, '--node', 'spec', '--model', 'opus')).toEqual(
      usage(
        `--node spec: item ${item.id} has already reached that node (it is at spec); a node override acts on nodes still to come`,
      ),
    );
    await noDraft();
    expect(await cli('item', 'set-node-override', item.id, '--node', 'plan', '--model', 'a b')).toEqual(
      usage('--node plan: task_config.model "a b" is not a model id'),
    );
    await noDraft();
    const missing = await cli('item', 'set-node-override', item.id, '--node', 'nope', '--model', 'opus');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^jig: --node nope: chain default has no node nope \(its nodes: spec, /);
    await noDraft();

    const theirs = [{ op: 'override', path: 'verification', task_config: { effort: 'low' } }];
    expect((await api('PUT', `/api/work-items/${item.id}/draft`, { ops: theirs })).status).toBe(200);
    expect(await cli('item', 'set-node-override', item.id, '--node', 'plan', '--model', 'opus')).toEqual(
      usage(
        `item ${item.id} has a chain draft of 1 op(s) not applied; apply or discard it first (POST or DELETE /api/work-items/${item.id}/draft)`,
      ),
    );
    const kept = (await api('GET', `/api/work-items/${item.id}/draft`)).json;
    expect(kept.ops).toEqual([{ ...theirs[0], passed: false }]);
    expect((await events(jig, item.id)).some((e) => e.type === 'chain_revised')).toBe(false);
  });
});
