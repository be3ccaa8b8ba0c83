import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAll, http, runJig, tempHome, type JigProcess } from './helpers/server.js';
import { BROKEN_CHAIN, BROKEN_PROBLEM, DEFAULTS, STEERING, templatesJig } from './helpers/templates.js';

let jig: JigProcess;
let home: string;
const get = (path: string) => http(`${jig.url}${path}`);
const config = (file: string) => join(home, 'config', file);

beforeAll(async () => {
  ({ jig, home } = await templatesJig());
});
afterAll(cleanupAll);

describe('GET /api/templates/chains', () => {
  it('lists every chain with its counts, whether it resolves and runs, and its problems', async () => {
    const res = await get('/api/templates/chains');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      chains: [
        {
          id: 'default',
          file: 'chains/default.yaml',
          description: 'Spec, plan, implement and verify on a local repository, with three review gates.',
          nodes: 8,
          gates: 3,
          resolves: true,
          running: true,
          problems: [],
        },
        {
          id: 'manual',
          file: 'chains/manual.yaml',
          description: 'No agent. You change the worktree; Jig runs the tests, then commits the change.',
          nodes: 3,
          gates: 1,
          resolves: true,
          running: true,
          problems: [],
        },
        {
          id: 'merge-request',
          file: 'chains/merge-request.yaml',
          description:
            'Spec, plan, implement and verify, then open, review and merge a merge request on the forge.',
          nodes: 17,
          gates: 4,
          resolves: true,
          running: true,
          problems: [],
        },
        {
          id: 'quick-task',
          file: 'chains/quick-task.yaml',
          description: "Smoke-test chain. Implement and run the changed scopes' tests, with no gate.",
          nodes: 2,
          gates: 0,
          resolves: true,
          running: true,
          problems: [],
        },
      ],
    });
  });

  it('shows a chain saved on disk before a reload runs it, with the problems across files', async () => {
    writeFileSync(config('chains/broken.yaml'), BROKEN_CHAIN);
    try {
      const res = await get('/api/templates/chains');
      expect(res.json.chains.find((c: { id: string }) => c.id === 'broken')).toEqual({
        id: 'broken',
        file: 'chains/broken.yaml',
        description: 'Broken on purpose.',
        nodes: 1,
        gates: 0,
        resolves: false,
        running: false,
        problems: [BROKEN_PROBLEM],
      });
      const resolved = await get('/api/templates/chains/broken/resolved');
      expect(resolved.status).toBe(422);
      expect(resolved.json).toEqual({
        detail:
          'chain broken does not resolve: chains/broken.yaml:7:18: build.main.run.harness: harness `claud` is not a harness in harnesses.yaml; did you mean `claude`?',
        code: 'chain_unresolved',
        problems: [BROKEN_PROBLEM],
      });
    } finally {
      rmSync(config('chains/broken.yaml'));
    }
  });

  it('reads a chain edited on disk at the next request, and again when it is put back', async () => {
    // The routes keep the last set they validated, by the digest of the files: an edit is a new set.
    const file = config('chains/quick-task.yaml');
    const before = readFileSync(file, 'utf8');
    const described = (r: { json: { chains: { id: string; description: string | null }[] } }) =>
      r.json.chains.find((c) => c.id === 'quick-task')?.description;
    expect(described(await get('/api/templates/chains'))).toBe(
      "Smoke-test chain. Implement and run the changed scopes' tests, with no gate.",
    );
    try {
      writeFileSync(file, before.replace(/^description: .*$/m, 'description: Edited on disk.'));
      expect(described(await get('/api/templates/chains'))).toBe('Edited on disk.');
    } finally {
      writeFileSync(file, before);
    }
    expect(described(await get('/api/templates/chains'))).toBe(
      "Smoke-test chain. Implement and run the changed scopes' tests, with no gate.",
    );
  });
});

describe('GET /api/templates/chains/{id}/resolved', () => {
  it('answers the chain with extends expanded, and which layer set each field', async () => {
    const res = await get('/api/templates/chains/quick-task/resolved');
    expect(res.status).toBe(200);
    const library = parse(STEERING) as { tasks: Record<string, Record<string, unknown>> };
    expect(res.json.resolved).toEqual({
      id: 'quick-task',
      description: "Smoke-test chain. Implement and run the changed scopes' tests, with no gate.",
      nodes: [
        {
          id: 'implementation',
          kind: 'exec',
          extends: 'implementation',
          description: "An agent implements the work item's description and commits the change.",
          path: 'implementation',
          steps: [
            {
              id: 'main',
              path: 'implementation.main',
              tasks: [
                {
                  ...library.tasks.implementer,
                  id: 'implement',
                  extends: 'implementer',
                  path: 'implementation.main.implement',
                },
              ],
            },
          ],
        },
        {
          id: 'verify',
          kind: 'exec',
          description: 'Run the tests for the changed scopes. No review and no repair loop.',
          path: 'verify',
          steps: [
            {
              id: 'main',
              path: 'verify.main',
              tasks: [
                {
                  ...library.tasks.verify_changed_scopes,
                  id: 'verify',
                  extends: 'verify_changed_scopes',
                  path: 'verify.main.verify',
                },
              ],
            },
          ],
        },
      ],
    });
    expect(Object.keys(res.json.sources)).toEqual([
      'implementation',
      'implementation.main',
      'implementation.main.implement',
      'verify',
      'verify.main',
      'verify.main.verify',
    ]);
    const cap = { value: null, source: 'policy' };
    expect(res.json.sources['implementation.main.implement']).toEqual({
      // The chain's node extends the library node, which holds this task.
      id: { value: 'implement', source: 'library:nodes.implementation' },
      extends: { value: 'implementer', source: 'library:nodes.implementation' },
      kind: { value: 'agent', source: 'library:tasks.implementer' },
      harness: { value: 'claude', source: 'library:tasks.implementer' },
      profile: { value: 'strong', source: 'library:tasks.implementer' },
      'policy.time_cap_minutes': { value: 120, source: 'library:tasks.implementer' },
      prompt: { value: library.tasks.implementer!.prompt, source: 'library:tasks.implementer' },
      scope: { value: 'once', source: 'default' },
      skippable: { value: true, source: 'default' },
      steering: { value: [], source: 'default' },
      inputs: { value: [], source: 'default' },
      fallback: { value: [], source: 'default' },
      'policy.total_time_cap_minutes': cap,
      'policy.token_budget': cap,
      'policy.budget_usd': cap,
    });
    expect({ ...res.json, resolved: null, sources: null }).toEqual({
      id: 'quick-task',
      resolved: null,
      sources: null,
      warnings: [],
      running: true,
    });
  });

  it('answers 404 for a chain that does not exist', async () => {
    for (const id of ['nope', '__proto__', 'constructor']) {
      const res = await get(`/api/templates/chains/${id}/resolved`);
      expect(res.status, id).toBe(404);
      expect(res.json).toEqual({ detail: `chain ${id} not found`, code: 'not_found' });
    }
  });
});

describe('jig admin templates', () => {
  it('lint checks a config directory without a server and exits 0 when clean', async () => {
    const dir = join(tempHome(), 'config');
    cpSync(DEFAULTS, dir, { recursive: true });
    const r = await runJig(['admin', 'templates', 'lint', '--dir', dir], { JIG_URL: 'http://127.0.0.1:9' });
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: `checked 11 files in ${dir} (access.yaml, harnesses.yaml, intake.yaml, library.yaml, policy.yaml, repos.yaml, theme.yaml, 4 chains): 0 problem(s), 0 warning(s)\n`,
    });
  });

  it('lint prints file:line:col: message per problem, warnings after, and exits 1', async () => {
    const h = tempHome();
    const dir = join(h, 'config');
    cpSync(DEFAULTS, dir, { recursive: true });
    writeFileSync(join(dir, 'chains', 'broken.yaml'), BROKEN_CHAIN);
    writeFileSync(
      join(dir, 'intake.yaml'),
      'schedules:\n  - cron: "0 9 * * 8"\n    repo: /somewhere\n    chain: quick-task\n    title: Weekly\n',
    );
    // The default directory: $JIG_HOME/config.
    const r = await runJig(['admin', 'templates', 'lint'], { JIG_HOME: h, JIG_CONFIG_DIR: '' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'chains/broken.yaml:7:18: harness `claud` is not a harness in harnesses.yaml; did you mean `claude`?',
        'intake.yaml:3:11: schedule 0: repo `/somewhere` is not connected (not in repos.yaml)',
        'intake.yaml:2:11: day_of_week: 8 is outside 0-7',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe(
      `checked 12 files in ${dir} (access.yaml, harnesses.yaml, intake.yaml, library.yaml, policy.yaml, repos.yaml, theme.yaml, 5 chains): 3 problem(s), 0 warning(s)\n`,
    );
    const json = await runJig(['admin', 'templates', 'lint', '--json', '--dir', dir]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.dir).toBe(dir);
    expect(report.problems[0]).toEqual(BROKEN_PROBLEM);
    expect(report.files).toContain('chains/broken.yaml');
  });

  it('lint refuses a directory that does not exist', async () => {
    const r = await runJig(['admin', 'templates', 'lint', '--dir', '/no/such/dir']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'jig: no config directory at /no/such/dir\n' });
  });

  it('show prints a chain by path, --resolved its whole model, through the API', async () => {
    const env = { JIG_HOME: home };
    const r = await runJig(['admin', 'templates', 'show', 'quick-task'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "quick-task: Smoke-test chain. Implement and run the changed scopes' tests, with no gate.",
        '2 nodes (0 gates) · running',
        '',
        "implementation                   exec        An agent implements the work item's description and commits the change.",
        '  implementation.main.implement  agent       extends implementer',
        'verify                           exec        Run the tests for the changed scopes. No review and no repair loop.',
        '  verify.main.verify             builtin     extends verify_changed_scopes',
        '',
      ].join('\n'),
    );
    const api = await get('/api/templates/chains/quick-task/resolved');
    const json = await runJig(['admin', 'templates', 'show', 'quick-task', '--resolved', '--json'], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(api.json);
    const yaml = await runJig(['admin', 'templates', 'show', 'quick-task', '--resolved'], env);
    expect(parse(yaml.stdout)).toEqual(api.json.resolved);
  });

  it('show exits 1 with the problems of a chain that does not resolve, and 2 for an unknown one', async () => {
    writeFileSync(config('chains/broken.yaml'), BROKEN_CHAIN);
    try {
      const r = await runJig(['admin', 'templates', 'show', 'broken'], { JIG_HOME: home });
      expect(r).toEqual({
        code: 1,
        stdout:
          'broken does not resolve:\nchains/broken.yaml:7:18: harness `claud` is not a harness in harnesses.yaml; did you mean `claude`?\n',
        stderr: '',
      });
    } finally {
      rmSync(config('chains/broken.yaml'));
    }
    const none = await runJig(['admin', 'templates', 'show', 'nope'], { JIG_HOME: home });
    expect(none).toEqual({ code: 2, stdout: '', stderr: 'jig: no chain nope\n' });
  });
});
