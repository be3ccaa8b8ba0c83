import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, repoRoot, startJig, type JigProcess } from './helpers/server.js';

const SEEDED = readFileSync(join(repoRoot, 'defaults', 'config', 'policy.yaml'), 'utf8');

let jig: JigProcess;
let file: string;
const get = () => http(`${jig.url}/api/policy`);
const put = (body: unknown) => http(`${jig.url}/api/policy`, { method: 'PUT', body });
const health = async () => (await http(`${jig.url}/api/health`)).json;

beforeAll(async () => {
  jig = await startJig();
  file = join(jig.home, 'config', 'policy.yaml');
});
beforeEach(async () => {
  writeFileSync(file, SEEDED);
  expect((await http(`${jig.url}/api/apply/reload`, { method: 'POST' })).status).toBe(200);
});
afterAll(cleanupAll);

describe('GET /api/policy', () => {
  it('answers policy.yaml as on disk with active_count and the running max_concurrent', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ...parse(SEEDED), active_count: 0 });
  });

  it('counts the items running now', async () => {
    const repo = makeRepo({ 'package.json': '{"scripts":{"test":"node -e 0"}}\n' });
    expect((await http(`${jig.url}/api/repos`, { method: 'POST', body: { path: repo } })).status).toBe(201);
    const ids: string[] = [];
    for (const title of ['one', 'two', 'three']) {
      const r = await http(`${jig.url}/api/triggers`, { method: 'POST', body: { title, repo } });
      expect(r.status).toBe(201);
      ids.push(r.json.id);
    }
    // No engine starts items yet: mark two of them running in the store itself.
    const db = new Database(join(jig.home, 'run', 'jig.db'));
    try {
      db.prepare(`UPDATE work_items SET status = 'running' WHERE id IN (?, ?)`).run(ids[0], ids[1]);
    } finally {
      db.close();
    }
    expect((await get()).json.active_count).toBe(2);
  });

  it('reports max_concurrent as the loaded policy runs it, 3 when the file has none', async () => {
    writeFileSync(file, SEEDED.replace(/^max_concurrent: 3.*\n/m, ''));
    expect((await http(`${jig.url}/api/apply/reload`, { method: 'POST' })).status).toBe(200);
    const res = await get();
    expect(res.json.max_concurrent).toBe(3);
    // Saved but not reloaded: the answer is what runs, not what the file says.
    writeFileSync(file, SEEDED.replace('max_concurrent: 3', 'max_concurrent: 7'));
    expect((await get()).json.max_concurrent).toBe(3);
  });

  it('fills loops and default as the loader reads them when the file leaves them out', async () => {
    writeFileSync(file, 'default:\n  attempts: 2\n');
    expect((await get()).json).toEqual({
      default: { attempts: 2, wall_clock_s: 3600 },
      loops: {},
      max_concurrent: 3,
      active_count: expect.any(Number),
    });
  });

  it('answers values of the wrong type as the file has them, and a save sent back names them', async () => {
    writeFileSync(file, 'loops: 5\ndefault: 3\n');
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ loops: 5, default: 3, max_concurrent: 3, active_count: expect.any(Number) });
    const back = await put(res.json);
    expect(back.status).toBe(422);
    expect(back.json.detail).toBe(
      'body.loops: Invalid input: expected record, received number; body.default: Invalid input: expected object, received number',
    );
  });
});

describe('PUT /api/policy', () => {
  it('merges the body key by key, keeps comments, applies it and answers the saved file', async () => {
    const before = (await get()).json;
    const res = await put({
      ...before,
      max_concurrent: 5,
      default: { attempts: 4, wall_clock_s: 3600 },
      loops: { 'verification.fix_loop': { attempts: 2 } },
      archive: null,
      active_count: 99,
    });
    expect(res.status).toBe(200);
    const text = readFileSync(file, 'utf8');
    expect(res.json).toEqual(parse(text));
    const { archive: _gone, ...kept } = parse(SEEDED) as Record<string, unknown>;
    expect(res.json).toEqual({
      ...kept,
      max_concurrent: 5,
      default: { attempts: 4, wall_clock_s: 3600 },
      loops: { 'verification.fix_loop': { attempts: 2 } },
    });
    // Comments on keys that survive are kept; the removed key went with its comment.
    expect(text).toContain(
      'max_concurrent: 5 # work items running at once; more wait in the queue. At least 1.',
    );
    expect(text).toContain('  attempts: 4 # repair cycles per entry into a node');
    expect(text).toContain('# Spend limits in US dollars.');
    expect(text).not.toContain('archive:');
    expect(text).not.toContain('active_count');
    // Applied: the running policy now allows five.
    expect((await get()).json.max_concurrent).toBe(5);
    const apply = await http(`${jig.url}/api/apply`);
    expect(apply.json.files.find((f: { file: string }) => f.file === 'policy.yaml').changed).toBe(false);
  });

  it('keeps an omitted key, and writes no max_concurrent the body leaves out', async () => {
    writeFileSync(file, 'default:\n  attempts: 2\n  wall_clock_s: 60\nrate_limit_retries: 1 # mine\n');
    const res = await put({ loops: {}, default: { attempts: 2, wall_clock_s: 90 } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      default: { attempts: 2, wall_clock_s: 90 },
      rate_limit_retries: 1,
      loops: {},
    });
    expect(readFileSync(file, 'utf8')).toBe(
      'default:\n  attempts: 2\n  wall_clock_s: 90\nrate_limit_retries: 1 # mine\nloops: {}\n',
    );
    expect((await get()).json.max_concurrent).toBe(3);
  });

  it('replaces a file that does not parse, and clears invalid_policy', async () => {
    writeFileSync(file, 'max_concurrent: [\n');
    expect((await http(`${jig.url}/api/apply/reload`, { method: 'POST' })).status).toBe(422);
    expect((await health()).invalid_policy).toMatch(/^policy\.yaml:\d+:\d+: /);
    const res = await put({ loops: {}, default: { attempts: 2, wall_clock_s: 60 }, max_concurrent: 2 });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ loops: {}, default: { attempts: 2, wall_clock_s: 60 }, max_concurrent: 2 });
    expect(parse(readFileSync(file, 'utf8'))).toEqual(res.json);
    const h = await health();
    expect(h.invalid_policy).toBe(null);
    expect(h.status).toBe('ok');
  });

  it('refuses a missing required field, a wrong type or an out-of-range value, and writes nothing', async () => {
    const cases: [unknown, string][] = [
      [
        { default: { attempts: 3, wall_clock_s: 60 } },
        'body.loops: Invalid input: expected record, received undefined',
      ],
      [{ loops: {} }, 'body.default: Invalid input: expected object, received undefined'],
      [
        { loops: {}, default: { attempts: 3 } },
        'body.default.wall_clock_s: Invalid input: expected number, received undefined',
      ],
      [
        { loops: [], default: { attempts: 3, wall_clock_s: 60 } },
        'body.loops: Invalid input: expected record, received array',
      ],
      [
        { loops: {}, default: { attempts: 3, wall_clock_s: 60 }, max_concurrent: 0 },
        'body.max_concurrent: Too small: expected number to be >=1',
      ],
      [
        { loops: {}, default: { attempts: 3, wall_clock_s: 60 }, max_concurrent: 1.5 },
        'body.max_concurrent: Invalid input: expected int, received number',
      ],
      [
        { loops: {}, default: { attempts: 3, wall_clock_s: 60 }, auto_escalate_stuck: 'yes' },
        'body.auto_escalate_stuck: Invalid input: expected boolean, received string',
      ],
    ];
    for (const [body, detail] of cases) {
      const res = await put(body);
      expect(res.status, detail).toBe(422);
      expect(res.json.code).toBe('validation_failed');
      expect(res.json.detail).toBe(detail);
      expect(readFileSync(file, 'utf8')).toBe(SEEDED);
    }
  });

  it("refuses a merged file the loader refuses, with the loader's message, and writes nothing", async () => {
    const base = { loops: {}, default: { attempts: 3, wall_clock_s: 3600 } };
    const res = await put({ ...base, budget: { daily_usd: -1 }, forge_cli_timeout: 5 });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail:
        'policy.yaml:30:14: budget.daily_usd: must be more than 0, got number `-1`; policy.yaml:145:1: forge_cli_timeout: unknown key `forge_cli_timeout`; did you mean `forge_cli_timeout_s`?',
      code: 'policy_invalid',
      problems: [
        {
          path: 'budget',
          field: 'daily_usd',
          message: 'must be more than 0, got number `-1`',
          file: 'policy.yaml',
          line: 30,
          col: 14,
        },
        {
          path: '',
          field: 'forge_cli_timeout',
          message: 'unknown key `forge_cli_timeout`; did you mean `forge_cli_timeout_s`?',
          file: 'policy.yaml',
          line: 145,
          col: 1,
        },
      ],
    });
    expect(readFileSync(file, 'utf8')).toBe(SEEDED);

    const loop = await put({ ...base, loops: { 'verifcation.fix_loop': { attempts: 2 } } });
    expect(loop.status).toBe(422);
    expect(loop.json).toEqual({
      detail:
        'policy.yaml:26:3: loops.verifcation.fix_loop: `verifcation.fix_loop` names no fix loop of any chain; did you mean `verification.fix_loop`?',
      code: 'policy_invalid',
      problems: [
        {
          path: 'loops',
          field: 'verifcation.fix_loop',
          message:
            '`verifcation.fix_loop` names no fix loop of any chain; did you mean `verification.fix_loop`?',
          file: 'policy.yaml',
          line: 26,
          col: 3,
        },
      ],
    });
    expect(readFileSync(file, 'utf8')).toBe(SEEDED);
  });

  it('refuses a maximum that a chain already exceeds, naming the chain', async () => {
    const res = await put({
      loops: {},
      default: { attempts: 3, wall_clock_s: 3600 },
      maxima: { tasks: { time_cap_minutes: 60 } },
    });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('policy_invalid');
    expect(res.json.problems.map((p: { message: string }) => p.message)).toEqual([
      'chain `default`: time_cap_minutes 120 exceeds maxima.tasks.time_cap_minutes 60',
      'chain `merge-request`: time_cap_minutes 120 exceeds maxima.tasks.time_cap_minutes 60',
      'chain `quick-task`: time_cap_minutes 120 exceeds maxima.tasks.time_cap_minutes 60',
    ]);
    expect(res.json.detail).toMatch(/^it would break chains: library\.yaml:\d+:\d+: /);
    expect(readFileSync(file, 'utf8')).toBe(SEEDED);
    expect((await health()).status).toBe('ok');
  });

  it('answers 400 for a body that is not JSON, and 422 for one that is not an object', async () => {
    const raw = await http(`${jig.url}/api/policy`, {
      method: 'PUT',
      raw: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    expect(raw.json.code).toBe('invalid_json');
    const list = await put([1]);
    expect(list.status).toBe(422);
    expect(list.json.code).toBe('validation_failed');
    expect(readFileSync(file, 'utf8')).toBe(SEEDED);
  });
});
