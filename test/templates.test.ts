import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_TEXT } from '../src/core/steering/contract-text.js';
import { cleanupAll, http, repoRoot, runJig, startJig, tempHome, type JigProcess } from './helpers/server.js';

const DEFAULTS = join(repoRoot, 'defaults', 'config');
const STEERING = readFileSync(join(DEFAULTS, 'library.yaml'), 'utf8');
const HOUSE_RULES = 'Indent with tabs. Keep functions short.';
const PROJECT_STANDARDS = (parse(STEERING) as { steering: Record<string, { instructions: string }> })
  .steering['project-standards']!.instructions;

/** A chain whose one task names a harness that does not exist. */
const BROKEN_CHAIN = `description: Broken on purpose.
nodes:
  - id: build
    tasks:
      - id: run
        kind: agent
        harness: claud
        prompt: Do it.
`;
const BROKEN_PROBLEM = {
  path: 'build.main.run',
  field: 'harness',
  message: 'harness `claud` is not a harness in harnesses.yaml; did you mean `claude`?',
  file: 'chains/broken.yaml',
  line: 7,
  col: 18,
};

let jig: JigProcess;
let home: string;
let repoDir: string;
const get = (path: string) => http(`${jig.url}${path}`);
const config = (file: string) => join(home, 'config', file);

beforeAll(async () => {
  home = tempHome();
  // The seeded files, plus one more steering entry, so the preview has a repo's steering to show.
  cpSync(DEFAULTS, join(home, 'config'), { recursive: true });
  writeFileSync(
    join(home, 'config', 'library.yaml'),
    `${STEERING}  house-rules:\n    instructions: ${HOUSE_RULES}\n`,
  );
  repoDir = join(tempHome('jig-repo-'), 'repo');
  mkdirSync(repoDir, { recursive: true });
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    `repos:\n  - path: ${repoDir}\n    test_command: ""\n    steering: [house-rules, project-standards]\n`,
  );
  jig = await startJig({ home });
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

describe('GET /api/templates/library', () => {
  it('answers the model and every component with what uses it', async () => {
    const res = await get('/api/templates/library');
    expect(res.status).toBe(200);
    const lib = parse(readFileSync(config('library.yaml'), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    expect(res.json.model).toEqual(lib);
    expect(res.json.problems).toEqual([]);
    expect(res.json.warnings).toEqual([]);
    expect(res.json.file).toBe('library.yaml');
    expect(res.json.components.map((c: { ref: string }) => c.ref)).toEqual(
      ['nodes', 'steps', 'tasks', 'steering'].flatMap((s) =>
        Object.keys(lib[s] ?? {}).map((n) => `${s}.${n}`),
      ),
    );
    const byRef = (ref: string) => res.json.components.find((c: { ref: string }) => c.ref === ref);
    expect(byRef('steering.house-rules')).toEqual({
      ref: 'steering.house-rules',
      section: 'steering',
      name: 'house-rules',
      written: { instructions: HOUSE_RULES },
      resolved: { instructions: HOUSE_RULES },
      used_by: { chains: [], repos: [repoDir] },
      problems: [],
    });
    expect(byRef('steering.project-standards').used_by).toEqual({
      chains: ['default', 'merge-request'],
      repos: [repoDir],
    });
    // The node is used through extends by every chain; its tasks through the node.
    expect(byRef('nodes.verification').used_by.chains).toEqual(['default', 'merge-request']);
    expect(byRef('tasks.repair_verification').used_by.chains).toEqual(['default', 'merge-request']);
  });

  it('answers one component by ref, and 404 for one that does not exist', async () => {
    const lib = parse(readFileSync(config('library.yaml'), 'utf8')) as {
      tasks: Record<string, Record<string, unknown>>;
    };
    const res = await get('/api/templates/library/tasks.implementer');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ref: 'tasks.implementer',
      section: 'tasks',
      name: 'implementer',
      written: lib.tasks.implementer,
      resolved: { id: 'implementer', ...lib.tasks.implementer },
      used_by: { chains: ['default', 'merge-request', 'quick-task'], repos: [] },
      problems: [],
    });
    const node = await get('/api/templates/library/nodes.verification');
    expect(node.status).toBe(200);
    expect(node.json.resolved.kind).toBe('exec');
    expect(node.json.resolved.fix_loop.judge).toMatchObject({
      id: 'judge',
      extends: 'strict_judge',
      kind: 'agent',
    });
    for (const ref of ['tasks.nope', 'widgets.implementer', 'implementer']) {
      const miss = await get(`/api/templates/library/${ref}`);
      expect(miss.status).toBe(404);
      expect(miss.json).toEqual({ detail: `library component ${ref} not found`, code: 'not_found' });
    }
  });

  it('reports a library problem at its component', async () => {
    const good = readFileSync(config('library.yaml'), 'utf8');
    writeFileSync(
      config('library.yaml'),
      good.replace(
        '  write_summary:\n    kind: agent\n    harness: claude',
        '  write_summary:\n    kind: agent\n    harness: cluade',
      ),
    );
    try {
      const res = await get('/api/templates/library/tasks.write_summary');
      expect(res.status).toBe(200);
      expect(res.json.problems).toEqual([
        {
          path: 'tasks.write_summary',
          field: 'harness',
          message: 'harness `cluade` is not a harness in harnesses.yaml; did you mean `claude`?',
          file: 'library.yaml',
          line: expect.any(Number),
          col: 14,
        },
      ]);
      const all = await get('/api/templates/library');
      expect(all.json.problems).toEqual(res.json.problems);
    } finally {
      writeFileSync(config('library.yaml'), good);
    }
  });
});

describe('GET /api/templates/steering/preview', () => {
  it("answers Jig's contract, then the repo's steering, then the task's, each once", async () => {
    const res = await get(
      `/api/templates/steering/preview?chain=default&task=spec.main.author&repo=${encodeURIComponent(repoDir)}`,
    );
    expect(res.status).toBe(200);
    const parts = [
      { source: 'jig', name: 'contract', origin: 'jig:contract', text: CONTRACT_TEXT },
      { source: 'repo', name: 'house-rules', origin: 'library:steering.house-rules', text: HOUSE_RULES },
      {
        source: 'repo',
        name: 'project-standards',
        origin: 'library:steering.project-standards',
        text: PROJECT_STANDARDS,
      },
    ];
    expect(res.json).toEqual({
      chain: 'default',
      task: 'spec.main.author',
      repo: repoDir,
      parts,
      missing: [],
      text: parts.map((p) => p.text).join('\n\n'),
    });
    expect(CONTRACT_TEXT).toContain('$JIG_RESULT_PATH');
    expect(CONTRACT_TEXT).toContain('$JIG_DAEMON_PID');
    expect(CONTRACT_TEXT).toContain('$JIG_DAEMON_PORT');
  });

  it('without a repo, answers the contract and the task steering', async () => {
    const res = await get('/api/templates/steering/preview?chain=default&task=spec.main.author');
    expect(res.status).toBe(200);
    expect(res.json.repo).toBe(null);
    expect(res.json.parts.map((p: { source: string; name: string }) => `${p.source}:${p.name}`)).toEqual([
      'jig:contract',
      'task:project-standards',
    ]);
    const plain = await get(
      '/api/templates/steering/preview?chain=quick-task&task=implementation.main.implement',
    );
    expect(plain.json.parts.map((p: { name: string }) => p.name)).toEqual(['contract']);
    expect(plain.json.text).toBe(CONTRACT_TEXT);
  });

  it('refuses what it cannot preview, naming it', async () => {
    const cases: [string, number, unknown][] = [
      ['chain=nope&task=a.main.b', 404, { detail: 'chain nope not found', code: 'not_found' }],
      [
        'chain=default&task=spec.main.nope',
        404,
        { detail: 'task spec.main.nope in chain default not found', code: 'not_found' },
      ],
      [
        'chain=quick-task&task=verify.main.verify',
        422,
        {
          detail:
            'querystring.task: task verify.main.verify is a builtin task; only agent tasks read steering',
          code: 'validation_failed',
          issues: [
            {
              field: 'querystring.task',
              message: 'task verify.main.verify is a builtin task; only agent tasks read steering',
            },
          ],
        },
      ],
      [
        'chain=default&task=spec.main.author&repo=/not/connected',
        404,
        { detail: 'no connected repo at /not/connected', code: 'repo_unknown' },
      ],
    ];
    for (const [q, status, body] of cases) {
      const res = await get(`/api/templates/steering/preview?${q}`);
      expect(res.status, q).toBe(status);
      expect(res.json, q).toEqual(body);
    }
    const missing = await get('/api/templates/steering/preview?chain=default');
    expect(missing.status).toBe(422);
    expect(missing.json.code).toBe('validation_failed');
    expect(missing.json.detail).toBe('querystring.task: Invalid input: expected string, received undefined');
  });
});

describe('GET /api/harnesses/profiles', () => {
  it('answers harness entries and profiles per provider, the older model map normalised', async () => {
    const good = readFileSync(config('harnesses.yaml'), 'utf8');
    writeFileSync(
      config('harnesses.yaml'),
      `harnesses:
  claude:
    provider: claude
  codex:
    provider: codex
    enabled: false
    executable: /opt/codex
    defaults: {effort: medium}
profiles:
  strong:
    providers:
      claude: {model: sonnet, effort: high}
      codex: {model: gpt-5-codex}
  old:
    model: {claude: opus, codex: gpt-5-codex}
    effort: high
    fallback:
      - {harness: codex, profile: strong}
`,
    );
    try {
      const res = await get('/api/harnesses/profiles');
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        harnesses: [
          { id: 'claude', provider: 'claude', enabled: true, executable: null, defaults: {} },
          {
            id: 'codex',
            provider: 'codex',
            enabled: false,
            executable: '/opt/codex',
            defaults: { effort: 'medium' },
          },
        ],
        profiles: [
          {
            name: 'strong',
            written_as: 'providers',
            providers: {
              claude: { model: 'sonnet', effort: 'high' },
              codex: { model: 'gpt-5-codex', effort: null },
            },
            fallback: [],
          },
          {
            name: 'old',
            written_as: 'model_map',
            providers: {
              claude: { model: 'opus', effort: 'high' },
              codex: { model: 'gpt-5-codex', effort: 'high' },
            },
            fallback: [{ harness: 'codex', profile: 'strong' }],
          },
        ],
        problems: [],
      });
      writeFileSync(config('harnesses.yaml'), 'harnesses: [\n');
      const broken = await get('/api/harnesses/profiles');
      expect(broken.status).toBe(200);
      expect({ ...broken.json, problems: broken.json.problems.map((p: { file: string }) => p.file) }).toEqual(
        {
          harnesses: [],
          profiles: [],
          problems: ['harnesses.yaml'],
        },
      );
    } finally {
      writeFileSync(config('harnesses.yaml'), good);
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
      stderr: `checked 10 files in ${dir}: 0 problem(s), 0 warning(s)\n`,
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
    expect(r.stderr).toBe(`checked 11 files in ${dir}: 3 problem(s), 0 warning(s)\n`);
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
