import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { engineSetup, events, fileItem, until } from './helpers/engine.js';
import { completed, ofType, sessionsOf, stopped, verify } from './helpers/fix-loop.js';
import { cleanupAll, tempHome } from './helpers/server.js';
import { cleanupButShared, shareServerPerFile } from './helpers/shared-home.js';

// The tests need nothing of a server but their chains, policy and repository: they share one.
shareServerPerFile();

// Each test's own servers go after it; the shared one after the file.
afterEach(cleanupButShared);
afterAll(cleanupAll);

describe('recovery, escalation and read_only', () => {
  it('on_failure runs once per entry, then the whole node reruns', async () => {
    const home = tempHome();
    const count = join(home, 'recovered');
    const { jig, repo } = await engineSetup(
      {
        recover: verify(`    on_failure:
      tasks:
        - id: relabel
          kind: subprocess
          run: 'echo x >> ${count}; touch fixed.txt'
`),
      },
      { home },
    );
    const item = await fileItem(jig, repo, 'recover');
    await until(jig, item.id, completed);
    const ev = await events(jig, item.id);
    expect(ofType(ev, 'node_recovery_started').map((e) => e.payload)).toEqual([
      { node: 'verify', plan: 'verify.on_failure', failed: ['verify.main.test'], entry: 1 },
    ]);
    expect(sessionsOf(ev, 'verify.main.test')).toHaveLength(2);
    expect(readFileSync(count, 'utf8')).toBe('x\n');
  });

  it('a recovery that ends done_with_concerns stops the item; a second failure is not recovered again', async () => {
    const { jig, repo } = await engineSetup({
      worried: verify(`    on_failure:
      tasks:
        - id: relabel
          kind: subprocess
          run: |
            printf '%s' '{"status":"done_with_concerns","concerns":"labels missing"}' > "$JIG_RESULT_PATH"
`),
      plain: verify(`    on_failure:
      tasks:
        - id: relabel
          kind: subprocess
          run: 'true'
`),
    });
    const a = await fileItem(jig, repo, 'worried');
    const sa = await until(jig, a.id, stopped);
    expect(sa.stop.kind).toBe('failed');
    expect(sa.stop.reason).toMatch(
      /^recovery verify\.on_failure: verify\.on_failure\.main\.relabel ended done_with_concerns \(session s[0-9a-f]+; jig view logs\)$/,
    );
    const b = await fileItem(jig, repo, 'plain');
    const sb = await until(jig, b.id, stopped);
    expect(sb.stop.reason).toMatch(/^verify\.main\.test ended failed \(session s[0-9a-f]+; jig view logs\)$/);
    const ev = await events(jig, b.id);
    expect(ofType(ev, 'node_recovery_started')).toHaveLength(1);
    expect(sessionsOf(ev, 'verify.main.test')).toHaveLength(2);
  });

  it('a stuck node runs its escalation task; when it succeeds the node gets a fresh entry', async () => {
    const { jig, repo } = await engineSetup({
      escalate: verify(
        `    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: 'true'
`,
        `    escalation:
      id: senior
      kind: subprocess
      run: touch fixed.txt
`,
      ),
    });
    const item = await fileItem(jig, repo, 'escalate');
    await until(jig, item.id, completed);
    const ev = await events(jig, item.id);
    const types = ev.map((e) => e.type);
    const reason = ofType(ev, 'node_stuck')[0].payload.reason;
    expect(reason).toMatch(/^verify\.fix_loop is stuck: the same findings came back after a repair/);
    expect(ofType(ev, 'node_stuck')[0].payload.escalation).toBe('verify.escalation.senior');
    expect(ofType(ev, 'stuck_escalation_started')[0].payload).toEqual({
      node: 'verify',
      task: 'verify.escalation.senior',
      reason,
    });
    expect(ofType(ev, 'stuck_escalation_finished')[0].payload).toMatchObject({
      node: 'verify',
      task: 'verify.escalation.senior',
      status: 'done',
      fresh_entry: true,
    });
    expect(ofType(ev, 'node_started').map((e) => e.payload.entry)).toEqual([undefined, 2]);
    expect(ofType(ev, 'findings_measured').at(-1).payload).toMatchObject({
      entry: 2,
      round: 1,
      findings: [],
    });
    expect(types.indexOf('stuck_escalation_finished')).toBeLessThan(types.indexOf('node_completed'));
  });

  it('a read_only step that changes the worktree stops the item', async () => {
    const { jig, repo } = await engineSetup({
      look: `
nodes:
  - id: inspect
    kind: exec
    steps:
      - id: look
        read_only: true
        tasks:
          - id: peek
            kind: subprocess
            run: git status
      - id: poke
        read_only: true
        tasks:
          - id: scribble
            kind: subprocess
            run: echo oops > notes.txt
`,
    });
    const item = await fileItem(jig, repo, 'look');
    const done = await until(jig, item.id, stopped);
    expect(done.stop.kind).toBe('failed');
    expect(done.stop.reason).toMatch(
      /^inspect\.poke is read_only but changed the worktree \(head=[0-9a-f]{40} status=/,
    );
    const violated = ofType(await events(jig, item.id), 'read_only_violated');
    expect(violated).toHaveLength(1);
    expect(violated[0].payload).toMatchObject({ node: 'inspect', step: 'inspect.poke' });
    expect(violated[0].payload.before).not.toBe(violated[0].payload.after);
  });
});
