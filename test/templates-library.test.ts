import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_TEXT } from '../src/core/steering/contract-text.js';
import { cleanupAll, http, type JigProcess } from './helpers/server.js';
import { HOUSE_RULES, STEERING, templatesJig } from './helpers/templates.js';

const PROJECT_STANDARDS = (parse(STEERING) as { steering: Record<string, { instructions: string }> })
  .steering['project-standards']!.instructions;

let jig: JigProcess;
let home: string;
let repoDir: string;
const get = (path: string) => http(`${jig.url}${path}`);
const config = (file: string) => join(home, 'config', file);

beforeAll(async () => {
  ({ jig, home, repoDir } = await templatesJig());
});
afterAll(cleanupAll);

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
