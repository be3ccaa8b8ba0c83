import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { engineSetup, events, fileItem, post, until } from './helpers/engine.js';
import { eventually } from './helpers/eventually.js';
import { completed, ofType, sessionsOf, stopped, verify } from './helpers/fix-loop.js';
import { cleanupAll, startJig, tempHome } from './helpers/server.js';
import { cleanupButShared, shareServerPerFile } from './helpers/shared-home.js';
import { holdUntil } from './helpers/hold.js';

// The tests need nothing of a server but their chains, policy and repository: they share one.
shareServerPerFile();

// Each test's own servers go after it; the shared one after the file.
afterEach(cleanupButShared);
afterAll(cleanupAll);

/** A task that reports one finding with the given JSON fields and status. */
const reporting = (status: string, finding: string) =>
  `printf '%s' '{"status":"${status}","findings":[${finding}]}' > "$JIG_RESULT_PATH"`;

describe('the fix loop', () => {
  it('a failing test opens the loop; the repair reads its brief, fixes it, and the node is measured again', async () => {
    const { jig, repo, home } = await engineSetup({
      fix: verify(`    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: 'test -f "$JIG_FIX_BRIEF" && touch fixed.txt'
`),
    });
    const item = await fileItem(jig, repo, 'fix');
    await until(jig, item.id, completed);
    const ev = await events(jig, item.id);
    const measured = ofType(ev, 'findings_measured');
    expect(measured).toHaveLength(2);
    const first = measured[0].payload;
    expect(first).toMatchObject({
      node: 'verify',
      entry: 1,
      round: 1,
      dropped: 0,
      failed: ['verify.main.test'],
      loop_severities: ['critical', 'important'],
      loop_open: true,
    });
    expect(first.findings).toEqual([
      {
        tag: expect.stringMatching(/^[0-9a-f]{16}$/),
        severity: 'critical',
        message: 'verify.main.test failed: test -f fixed.txt',
        file: 'verify.main.test',
        task: 'verify.main.test',
        synthetic: true,
      },
    ]);
    expect(measured[1].payload).toMatchObject({ round: 2, findings: [], failed: [], loop_open: false });
    expect(ofType(ev, 'fix_cycle_started').map((e) => e.payload)).toEqual([
      {
        node: 'verify',
        cycle: 1,
        attempts: 3,
        wall_clock_s: 3600,
        findings: [first.findings[0].tag],
      },
    ]);
    const repair = sessionsOf(ev, 'verify.fix_loop.main.repair');
    expect(repair).toHaveLength(1);
    const brief = readFileSync(join(home, 'run', 'results', `${repair[0].payload.session}.brief.md`), 'utf8');
    expect(brief).toContain('# Fix brief: verify, cycle 1 of 3');
    expect(brief).toContain('- `verify.main.test` ended failed: `test -f fixed.txt`');
    expect(brief).toContain(
      `- [${first.findings[0].tag}] critical (verify.main.test): verify.main.test failed`,
    );
    expect(brief).toContain(`- round 1: ${first.findings[0].tag}`);
    expect(ev.map((e) => e.type).slice(-2)).toEqual(['node_completed', 'work_item_completed']);
  });

  it('a judge verdict stop_needs_human makes the node stuck (the judge skips the first cycle)', async () => {
    const { jig, repo } = await engineSetup({
      judged: verify(`    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: 'true'
      judge:
        kind: subprocess
        run: |
          test -f "$JIG_FIX_BRIEF" && printf '%s' '{"status":"done","verdict":"stop_needs_human","concerns":"the test needs a fixture"}' > "$JIG_RESULT_PATH"
`),
    });
    const item = await fileItem(jig, repo, 'judged');
    const done = await until(jig, item.id, stopped);
    expect(done.stop).toEqual({
      kind: 'stuck',
      reason: 'verify.fix_loop: the judge asked for a person: the test needs a fixture',
      suggested_action: null,
    });
    const ev = await events(jig, item.id);
    expect(ofType(ev, 'fix_cycle_started')).toHaveLength(1);
    expect(sessionsOf(ev, 'verify.fix_loop.judge')).toHaveLength(1);
    const verdict = ofType(ev, 'judge_verdict')[0].payload;
    expect(verdict).toEqual({
      node: 'verify',
      cycle: 1,
      verdict: 'stop_needs_human',
      applied: 'stop_needs_human',
      concerns: 'the test needs a fixture',
      session: sessionsOf(ev, 'verify.fix_loop.judge')[0].payload.session,
    });
    expect(ofType(ev, 'node_stuck')[0].payload).toEqual({
      node: 'verify',
      reason: 'verify.fix_loop: the judge asked for a person: the test needs a fixture',
      escalation: null,
    });
  });

  it('stop_downgrade completes the node with its findings recorded as unresolved', async () => {
    const { jig, repo } = await engineSetup({
      lenient: `
nodes:
  - id: review
    kind: exec
    tasks:
      - id: lint
        kind: subprocess
        run: |
          ${reporting('done', '{"severity":"important","message":"naming is off","file":"a.ts"},{"severity":"bogus"}')}
    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: 'true'
      judge:
        kind: subprocess
        run: |
          printf '%s' '{"status":"done","verdict":"stop_downgrade","concerns":"style only"}' > "$JIG_RESULT_PATH"
`,
    });
    const item = await fileItem(jig, repo, 'lenient');
    await until(jig, item.id, completed);
    const ev = await events(jig, item.id);
    const measured = ofType(ev, 'findings_measured');
    expect(measured[0].payload.dropped).toBe(1);
    const tag = measured[0].payload.findings[0].tag;
    expect(ofType(ev, 'judge_verdict')[0].payload).toMatchObject({
      verdict: 'stop_downgrade',
      applied: 'stop_downgrade',
    });
    expect(ofType(ev, 'node_completed')[0].payload).toEqual({
      node: 'review',
      downgraded: true,
      unresolved: [tag],
      concerns: 'style only',
    });
  });

  it('attempts run out into a stuck stop with the exact reason', async () => {
    const home = tempHome();
    const counter = join(home, 'counter');
    const { jig, repo } = await engineSetup(
      {
        tries: `
nodes:
  - id: verify
    kind: exec
    tasks:
      - id: test
        kind: subprocess
        run: |
          n=$(( $(cat ${counter} 2>/dev/null || echo 0) + 1 )); echo $n > ${counter}
          printf '{"status":"failed","findings":[{"severity":"critical","message":"round %s"}]}' $n > "$JIG_RESULT_PATH"
    fix_loop:
      max_attempts: 2
      tasks:
        - id: repair
          kind: subprocess
          run: 'true'
`,
      },
      { home },
    );
    const item = await fileItem(jig, repo, 'tries');
    const done = await until(jig, item.id, stopped);
    expect(done.stop).toEqual({
      kind: 'stuck',
      reason: 'verify.fix_loop exhausted after 2 fix cycle(s)',
      suggested_action: null,
    });
    const ev = await events(jig, item.id);
    expect(ofType(ev, 'fix_cycle_started').map((e) => e.payload.cycle)).toEqual([1, 2]);
    expect(ofType(ev, 'findings_measured')).toHaveLength(3);
    expect(readFileSync(counter, 'utf8').trim()).toBe('3');
  });

  it('the same findings coming back after a repair make the node stuck', async () => {
    const { jig, repo } = await engineSetup({
      same: verify(`    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: 'true'
`),
    });
    const item = await fileItem(jig, repo, 'same');
    const done = await until(jig, item.id, stopped);
    const ev = await events(jig, item.id);
    const tag = ofType(ev, 'findings_measured')[0].payload.findings[0].tag;
    expect(done.stop.kind).toBe('stuck');
    expect(done.stop.reason).toBe(
      `verify.fix_loop is stuck: the same findings came back after a repair (${tag})`,
    );
    expect(ofType(ev, 'fix_cycle_started')).toHaveLength(1);
    // A retry is a fresh entry: counters reset, the loop runs again.
    expect((await post(jig, `/api/work-items/${item.id}/retry`)).status).toBe(200);
    await until(jig, item.id, (i) => stopped(i) && i.stop.kind === 'stuck');
    const again = await events(jig, item.id);
    expect(ofType(again, 'fix_cycle_started').map((e) => e.payload.cycle)).toEqual([1, 1]);
  });

  it('a builtin that fails with no findings stops the loop: no commit can fix it', async () => {
    const { jig, repo } = await engineSetup(
      {
        builtin: `
nodes:
  - id: verify
    kind: exec
    tasks:
      - id: tests
        kind: builtin
        ref: jig.verify_changed_test_scopes
    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: 'true'
`,
      },
      { testCommand: 'echo "Error: no database"; exit 3' },
    );
    const item = await fileItem(jig, repo, 'builtin');
    const done = await until(jig, item.id, stopped);
    expect(done.stop.kind).toBe('failed');
    expect(done.stop.reason).toBe(
      'verify: only builtin task(s) failed (verify.main.tests) and no findings were reported; no commit can fix that',
    );
    const ev = await events(jig, item.id);
    expect(ofType(ev, 'fix_cycle_started')).toHaveLength(0);
    expect(ofType(ev, 'findings_measured')[0].payload.findings[0]).toMatchObject({
      severity: 'critical',
      synthetic: true,
      task: 'verify.main.tests',
    });
  });
});

describe('restarts inside a fix loop', () => {
  it('a server killed during a repair adopts it after the restart, and the loop continues', async () => {
    const home = tempHome();
    const go = join(home, 'go');
    const { jig, repo } = await engineSetup(
      {
        slowfix: verify(`    fix_loop:
      tasks:
        - id: repair
          kind: subprocess
          run: '${holdUntil(go)}; touch fixed.txt'
`),
      },
      { home },
    );
    const item = await fileItem(jig, repo, 'slowfix');
    await eventually(
      async () => sessionsOf(await events(jig, item.id), 'verify.fix_loop.main.repair').length > 0,
      { what: 'a verify.fix_loop.main.repair session' },
    );
    await jig.stop('SIGKILL');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(go, '');
    const again = await startJig({ home });
    await until(again, item.id, completed);
    const ev = await events(again, item.id);
    expect(sessionsOf(ev, 'verify.fix_loop.main.repair')).toHaveLength(1);
    expect(ofType(ev, 'fix_cycle_started')).toHaveLength(1);
    expect(
      ofType(ev, 'session_reattached').length + ofType(ev, 'session_resolved_after_restart').length,
    ).toBe(1);
    expect(ofType(ev, 'findings_measured').map((e) => e.payload.round)).toEqual([1, 2]);
  });

  it('a server killed in the second step of a repair continues it without rerunning the first', async () => {
    const home = tempHome();
    const go = join(home, 'go');
    const { jig, repo } = await engineSetup(
      {
        waits: verify(`    fix_loop:
      steps:
        - id: first
          tasks:
            - id: note
              kind: subprocess
              run: 'echo note > note.txt'
        - id: second
          tasks:
            - id: wait
              kind: subprocess
              run: '${holdUntil(go)}; touch fixed.txt'
`),
      },
      { home },
    );
    const item = await fileItem(jig, repo, 'waits');
    await eventually(
      async () => sessionsOf(await events(jig, item.id), 'verify.fix_loop.second.wait').length > 0,
      {
        what: 'a verify.fix_loop.second.wait session',
      },
    );
    await jig.stop('SIGKILL');
    const again = await startJig({ home });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(go, '');
    await until(again, item.id, completed);
    const ev = await events(again, item.id);
    expect(sessionsOf(ev, 'verify.fix_loop.first.note')).toHaveLength(1);
    expect(sessionsOf(ev, 'verify.fix_loop.second.wait')).toHaveLength(1);
    expect(ofType(ev, 'fix_cycle_started')).toHaveLength(1);
  });

  it('a repair ended by a pause is refunded, not counted, and runs again on resume', async () => {
    const home = tempHome();
    const go = join(home, 'go');
    const { jig, repo } = await engineSetup(
      {
        paused: verify(`    fix_loop:
      max_attempts: 1
      tasks:
        - id: repair
          kind: subprocess
          run: '${holdUntil(go)}; touch fixed.txt'
`),
      },
      { home },
    );
    const item = await fileItem(jig, repo, 'paused');
    await eventually(
      async () => sessionsOf(await events(jig, item.id), 'verify.fix_loop.main.repair').length > 0,
      { what: 'a verify.fix_loop.main.repair session' },
    );
    expect((await post(jig, `/api/work-items/${item.id}/pause`)).json.status).toBe('paused');
    // The default bound (30 s): ten seconds ran out on PostgreSQL on a loaded machine.
    await eventually(async () => ofType(await events(jig, item.id), 'fix_cycle_refunded').length > 0, {
      what: 'a fix_cycle_refunded event',
    });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(go, '');
    expect((await post(jig, `/api/work-items/${item.id}/resume`)).status).toBe(200);
    await until(jig, item.id, completed);
    const ev = await events(jig, item.id);
    expect(ofType(ev, 'fix_cycle_refunded').map((e) => e.payload)).toEqual([
      { node: 'verify', cycle: 1, reason: 'paused' },
    ]);
    // With max_attempts 1, a counted cycle would have left none for the second repair.
    expect(ofType(ev, 'fix_cycle_started').map((e) => e.payload.cycle)).toEqual([1, 1]);
    expect(sessionsOf(ev, 'verify.fix_loop.main.repair')).toHaveLength(2);
  });
});
