import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentSetup } from './helpers/agents.js';
import { buildChain, singleTask } from './helpers/chain-tests.js';
import { eventually } from './helpers/eventually.js';
import { fileItem, post, until } from './helpers/engine.js';
import { cleanupAll, http, runJig, tempHome } from './helpers/server.js';

afterAll(cleanupAll);

/*
 * Issue 51, done when: a recording of a real run (a fake agent CLI) replays identically on the
 * unchanged chain, and reports the divergence after a node is renamed.
 */

const chain = buildChain(true);

describe('recordings and their replay', () => {
  it('records a real run, replays it identically, and names where a renamed node diverges', async () => {
    const home = tempHome();
    const rules = join(home, 'fake-rules.json');
    // The review finds something once; the code and the repair change a file and commit it.
    writeFileSync(
      rules,
      JSON.stringify({
        rules: [
          {
            match: 'Review the feature',
            mode: 'done',
            findings: [{ severity: 'important', message: 'the feature is half done' }],
            times: 1,
          },
          { match: 'Review the feature', mode: 'done', findings: [] },
        ],
        default: { mode: 'fix', tokens: '1000,100' },
      }),
    );
    const { jig, repo } = await agentSetup({ shipping: chain }, { home, env: { FAKE_AGENT_SCRIPT: rules } });
    const item = await fileItem(jig, repo, 'shipping');
    const atGate = (i: any) => i.status === 'stopped' && i.stop?.kind === 'gate';
    let at = await until(jig, item.id, atGate);
    let r = await post(jig, `/api/work-items/${item.id}/gates/ship/reject`, {
      note: 'Once more.',
      request: at.gate_request,
    });
    expect(r.status, r.text).toBe(200);
    at = await until(jig, item.id, (i) => atGate(i) && i.gate_request !== at.gate_request);
    r = await post(jig, `/api/work-items/${item.id}/gates/ship/approve`, { request: at.gate_request });
    expect(r.status, r.text).toBe(200);
    await until(jig, item.id, (i) => i.status === 'completed');

    const recorded = await post(jig, `/api/work-items/${item.id}/recording`);
    expect(recorded.status, recorded.text).toBe(201);
    const name: string = recorded.json.name;
    expect(recorded.json).toEqual({
      name,
      path: join(home, 'recordings', `${name}.json`),
      sessions: 7,
      gates: 2,
      not_captured: 0,
    });
    expect(name).toMatch(new RegExp(`^${item.id.toLowerCase()}-\\d{8}t\\d{6}z$`));
    expect(existsSync(recorded.json.path)).toBe(true);
    const list = await http(`${jig.url}/api/recordings`);
    expect(list.json.recordings.map((x: any) => [x.name, x.item, x.chain, x.status, x.sessions])).toEqual([
      [name, item.id, 'shipping', 'completed', 7],
    ]);
    const rec = (await http(`${jig.url}/api/recordings/${name}`)).json;
    // Each session: what it answered and what it changed, as the fake CLI left it.
    // Tasks of a step run at once: their order among themselves is theirs. They share the
    // worktree too, so what the review "changed" depends on when the code's commit fell: only the
    // code's and the repair's changes are asserted.
    const shown = (x: any) =>
      `${x.task}#${x.attempt} ${x.status}${x.task.endsWith('check') ? '' : ` ${Object.keys(x.files ?? {}).length > 0}`}`;
    expect(rec.sessions.map(shown).sort()).toEqual([
      'build.fix_loop.main.repair#1 done true',
      'build.main.check#1 done',
      'build.main.check#2 done',
      'build.main.check#3 done',
      'build.main.code#1 done true',
      'build.main.code#2 done true',
      'build.main.code#3 done true',
    ]);
    expect(rec.gates).toEqual([
      { gate: 'ship', decision: { reject: 'Once more.', node: 'build' }, by: 'human' },
      { gate: 'ship', decision: 'approve', by: 'human' },
    ]);
    expect(rec.sessions.find((s: any) => s.task === 'build.main.code').stream).toContain('"type":"result"');

    // The unchanged chain: the same path, no divergence.
    const same = await post(jig, '/api/templates/chains/shipping/test', { replay: name });
    expect(same.status, same.text).toBe(200);
    expect(same.json.divergences).toEqual([]);
    expect(same.json.path).toEqual(rec.path);
    expect({ ok: same.json.ok, ended: same.json.ended }).toEqual({ ok: true, ended: 'completed' });

    // The CLI: a recording by name, and a recording file.
    const cli = await runJig(['chain', 'test', 'shipping', '--replay', recorded.json.path], {
      JIG_HOME: home,
    });
    expect({ code: cli.code, stderr: cli.stderr }).toEqual({ code: 0, stderr: '' });
    expect(cli.stdout).toContain('shipping: ok — ended: completed');

    // `build` renamed `make`: its tasks have no answers, the recorded ones go unused, the route differs.
    writeFileSync(
      join(home, 'config', 'chains', 'shipping.yaml'),
      chain.replace('- id: build', '- id: make').replace('reject_to: build', 'reject_to: make'),
    );
    expect((await post(jig, '/api/templates/reload')).status).toBe(200);
    const renamed = await runJig(['chain', 'test', 'shipping', '--replay', name, '--json'], {
      JIG_HOME: home,
    });
    expect(renamed.code).toBe(1);
    const report = JSON.parse(renamed.stdout);
    expect(report.ok).toBe(false);
    // Which of the renamed node's tasks ran before it stopped is the engine's; that they had no
    // answer, and the old ones went unused, is the point.
    expect(report.divergences.map((d: any) => `${d.kind} ${d.task ?? '-'}`).sort()).toEqual([
      'no_answer make.fix_loop.main.repair',
      'no_answer make.main.check',
      'no_answer make.main.code',
      'route -',
      'unused build.fix_loop.main.repair',
      'unused build.main.check',
      'unused build.main.code',
    ]);
    expect(report.divergences.at(-1).detail).toBe(
      'step 1: the recording went "build started", the replay "make started"',
    );
  });

  it('records every item that completes when policy.yaml says record_runs; refuses a name that is not a recording', async () => {
    const { jig, repo } = await agentSetup(
      { one: singleTask('build') },
      { home: tempHome(), policy: 'record_runs: true\n' },
    );
    const item = await fileItem(jig, repo, 'one');
    await until(jig, item.id, (i) => i.status === 'completed');
    const listed = await eventually(
      async () => {
        const l = (await http(`${jig.url}/api/recordings`)).json.recordings;
        return l.length > 0 ? l : undefined;
      },
      { what: 'the completed item to be recorded' },
    );
    expect(listed.map((r: any) => [r.item, r.chain, r.status, r.sessions])).toEqual([
      [item.id, 'one', 'completed', 1],
    ]);
    const rec = (await http(`${jig.url}/api/recordings/${listed[0].name}`)).json;
    expect(Object.keys(rec.sessions[0].files).length).toBeGreaterThan(0);

    const missing = await http(`${jig.url}/api/recordings/nope-1`);
    expect({ status: missing.status, code: missing.json.code }).toEqual({ status: 404, code: 'not_found' });
    const bad = await http(`${jig.url}/api/recordings/..%2Fx`);
    expect(bad.status).toBe(422);
  });
});
