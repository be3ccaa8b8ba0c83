import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyState } from '../src/runtime/config/apply-state.js';
import { ConfigState } from '../src/runtime/config/config-state.js';
import { cleanupAll, http, repoRoot, runJig, startJig, tempHome, type JigProcess } from './helpers/server.js';

const DEFAULTS = join(repoRoot, 'defaults', 'config');
const UNSUPERVISED = { INVOCATION_ID: '', JIG_SUPERVISED: '' };
const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const ALL_LOADED = [
  'library.yaml',
  'chains/default.yaml',
  'chains/manual.yaml',
  'chains/merge-request.yaml',
  'chains/quick-task.yaml',
  'policy.yaml',
  'intake.yaml',
  'harnesses.yaml',
  'repos.yaml',
  'notify.yaml',
];

let jig: JigProcess;
const cfg = (file: string) => join(jig.home, 'config', file);
const reload = () => http(`${jig.url}/api/apply/reload`, { method: 'POST' });
const health = async () => (await http(`${jig.url}/api/health`)).json;
const apply = async () => (await http(`${jig.url}/api/apply`)).json;

/** Puts every seeded file back and reloads, so each test starts from a clean, running set. */
function restoreDefaults(): void {
  for (const f of readdirSync(join(jig.home, 'config', 'chains')))
    if (!existsSync(join(DEFAULTS, 'chains', f))) rmSync(cfg(`chains/${f}`));
  for (const f of [
    'library.yaml',
    'harnesses.yaml',
    'policy.yaml',
    'repos.yaml',
    'intake.yaml',
    'chains/quick-task.yaml',
  ])
    writeFileSync(cfg(f), readFileSync(join(DEFAULTS, f), 'utf8'));
}

beforeAll(async () => {
  jig = await startJig({ env: UNSUPERVISED });
});
beforeEach(async () => {
  restoreDefaults();
  expect((await reload()).status).toBe(200);
});
afterAll(cleanupAll);

describe('GET /api/apply', () => {
  it('answers each file with the sha256 running and on disk, and nothing to apply', async () => {
    const row = (file: string, applies_by: 'reload' | 'next_read' | 'restart') => {
      const h = sha(readFileSync(cfg(file), 'utf8'));
      return { file, applies_by, running_sha256: h, disk_sha256: h, changed: false };
    };
    const res = await http(`${jig.url}/api/apply`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      files: [
        ...ALL_LOADED.slice(0, 7).map((f) => row(f, 'reload')),
        row('harnesses.yaml', 'next_read'),
        row('repos.yaml', 'next_read'),
        // Its address and port wait for a restart; the rest is read live.
        row('access.yaml', 'restart'),
      ],
      refused: [],
      reload_needed: false,
      restart_needed: false,
      version: '2.0.0',
      installed: '2.0.0',
      supervised: false,
    });
  });

  it('shows a file saved but not running until a reload runs it', async () => {
    const old = readFileSync(cfg('chains/quick-task.yaml'), 'utf8');
    const edited = old.replace('Smoke-test chain.', 'Smoke test.');
    writeFileSync(cfg('chains/quick-task.yaml'), edited);
    writeFileSync(cfg('chains/extra.yaml'), old);
    let a = await apply();
    expect(a.reload_needed).toBe(true);
    const byFile = (f: string) => a.files.find((x: { file: string }) => x.file === f);
    expect(byFile('chains/quick-task.yaml')).toEqual({
      file: 'chains/quick-task.yaml',
      applies_by: 'reload',
      running_sha256: sha(old),
      disk_sha256: sha(edited),
      changed: true,
    });
    expect(byFile('chains/extra.yaml')).toEqual({
      file: 'chains/extra.yaml',
      applies_by: 'reload',
      running_sha256: null,
      disk_sha256: sha(old),
      changed: true,
    });
    expect((await reload()).status).toBe(200);
    a = await apply();
    expect(a.reload_needed).toBe(false);
    expect(a.files.every((f: { changed: boolean }) => !f.changed)).toBe(true);

    // A deleted chain stops running at the reload; until then it is pending.
    rmSync(cfg('chains/extra.yaml'));
    a = await apply();
    expect(byFile('chains/extra.yaml')).toBeDefined();
    expect(a.files.find((x: { file: string }) => x.file === 'chains/extra.yaml')).toEqual({
      file: 'chains/extra.yaml',
      applies_by: 'reload',
      running_sha256: sha(old),
      disk_sha256: null,
      changed: true,
    });
    expect((await reload()).status).toBe(200);
    a = await apply();
    expect(a.files.map((f: { file: string }) => f.file)).not.toContain('chains/extra.yaml');
  });

  it('keeps a refused file pending: the running version is the old text', async () => {
    const old = readFileSync(cfg('chains/quick-task.yaml'), 'utf8');
    writeFileSync(cfg('chains/quick-task.yaml'), 'nodes: [\n');
    expect((await reload()).status).toBe(422);
    const a = await apply();
    expect(a.files.find((x: { file: string }) => x.file === 'chains/quick-task.yaml')).toMatchObject({
      running_sha256: sha(old),
      changed: true,
    });
    expect(a.reload_needed).toBe(true);
  });

  it('reports harnesses.yaml and repos.yaml changed since the last check, without asking for a reload', async () => {
    writeFileSync(cfg('harnesses.yaml'), `${readFileSync(cfg('harnesses.yaml'), 'utf8')}\n# edited\n`);
    const a = await apply();
    expect(a.files.find((x: { file: string }) => x.file === 'harnesses.yaml')).toMatchObject({
      applies_by: 'next_read',
      changed: true,
    });
    expect(a.reload_needed).toBe(false);
  });

  it('says a restart is needed when the version installed differs from the one running', () => {
    const dir = join(tempHome(), 'config');
    cpSync(DEFAULTS, dir, { recursive: true });
    const config = new ConfigState(dir);
    config.loadAtStart();
    const a = applyState(dir, config, { version: '2.0.0', installed: '2.1.0', supervised: true });
    expect(a).toMatchObject({
      restart_needed: true,
      reload_needed: false,
      version: '2.0.0',
      installed: '2.1.0',
    });
  });
});

describe('POST /api/apply/reload across files', () => {
  it('refuses a chain whose task names a harness that does not exist, and health says why', async () => {
    writeFileSync(
      cfg('chains/odd.yaml'),
      'nodes:\n  - id: build\n    tasks:\n      - id: run\n        kind: agent\n        harness: codx\n        prompt: Go.\n',
    );
    const res = await reload();
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      loaded: ALL_LOADED.filter((f) => f !== 'chains/odd.yaml'),
      refused: [
        {
          file: 'chains/odd.yaml',
          problems: [
            {
              path: 'build.main.run',
              field: 'harness',
              message: 'harness `codx` is not a harness in harnesses.yaml; did you mean `codex`?',
              file: 'chains/odd.yaml',
              line: 6,
              col: 18,
            },
          ],
        },
      ],
      warnings: [],
      detail: 'a configuration file was refused: chains/odd.yaml',
      code: 'config_refused',
    });
    const h = await health();
    expect(h.status).toBe('degraded');
    expect(h.invalid_templates).toBe(
      'chains/odd.yaml:6:18: build.main.run.harness: harness `codx` is not a harness in harnesses.yaml; did you mean `codex`?',
    );
  });

  it('puts a harness removed from harnesses.yaml under invalid_templates: it breaks the library', async () => {
    const text = readFileSync(cfg('harnesses.yaml'), 'utf8');
    writeFileSync(cfg('harnesses.yaml'), text.replace(/\n {2}claude:\n(?: {4}.*\n)+/, '\n'));
    const res = await reload();
    expect(res.status).toBe(422);
    expect(res.json.refused.map((r: { file: string }) => r.file)).toEqual(['library.yaml']);
    const h = await health();
    expect(h.status).toBe('degraded');
    expect(h.invalid_templates).toMatch(
      /^library\.yaml:\d+:\d+: tasks\.\w+\.harness: harness `claude` is not a harness/,
    );
    // New work is refused while it is so.
    const cli = await runJig(['admin', 'reload'], { JIG_HOME: jig.home });
    expect(cli.code).toBe(1);
    expect(cli.stdout.split('\n')[0]).toBe('refused 1 file(s); the running version of each is kept:');
  });

  it('reports harnesses.yaml and repos.yaml problems that break no chain, without degrading health', async () => {
    const text = readFileSync(cfg('harnesses.yaml'), 'utf8');
    writeFileSync(
      cfg('harnesses.yaml'),
      `${text}  spare:\n    providers:\n      claude: {model: haiku}\n    fallback:\n      - {profile: fastest}\n`,
    );
    writeFileSync(cfg('repos.yaml'), 'repos:\n  - path: /srv/app\n    default_chain: quick_task\n');
    const res = await reload();
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      loaded: [...ALL_LOADED.slice(0, 7), 'notify.yaml'],
      refused: [
        {
          file: 'harnesses.yaml',
          problems: [
            {
              path: 'profiles.spare.fallback.0',
              field: 'profile',
              message: 'profile `fastest` is not a profile in harnesses.yaml `profiles:`',
              file: 'harnesses.yaml',
              line: expect.any(Number),
              col: 19,
            },
          ],
        },
        {
          file: 'repos.yaml',
          problems: [
            {
              path: 'repos.0',
              field: 'default_chain',
              message:
                'repo `/srv/app`: default_chain `quick_task` names no chain; did you mean `quick-task`?',
              file: 'repos.yaml',
              line: 3,
              col: 20,
            },
          ],
        },
      ],
      warnings: [],
      detail: 'a configuration file was refused: harnesses.yaml, repos.yaml',
      code: 'config_refused',
    });
    const h = await health();
    expect(h).toMatchObject({
      status: 'ok',
      invalid_templates: null,
      invalid_policy: null,
      invalid_intake: null,
    });
  });

  it('loads an intake.yaml whose schedule names an unknown chain or repo, and warns: the schedule is skipped when it fires', async () => {
    writeFileSync(
      cfg('intake.yaml'),
      'schedules:\n  - cron: "0 0 1 1 *"\n    repo: /srv/app\n    chain: nope\n    title: New year\n',
    );
    const res = await reload();
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      loaded: ALL_LOADED,
      refused: [],
      warnings: [
        {
          file: 'intake.yaml',
          problems: [
            {
              path: 'schedules.0',
              field: 'chain',
              message: 'schedule 0: chain `nope` is not in the library',
              file: 'intake.yaml',
              line: 4,
              col: 12,
            },
            {
              path: 'schedules.0',
              field: 'repo',
              message: 'schedule 0: repo `/srv/app` is not connected (not in repos.yaml)',
              file: 'intake.yaml',
              line: 3,
              col: 11,
            },
          ],
        },
      ],
    });
    expect((await health()).status).toBe('ok');
    const cli = await runJig(['admin', 'reload'], { JIG_HOME: jig.home });
    expect(cli).toEqual({
      code: 0,
      stdout: [
        'reloaded 10 file(s): harnesses.yaml, intake.yaml, library.yaml, notify.yaml, policy.yaml, repos.yaml, 4 chains',
        'intake.yaml:4:12: warning: schedule 0: chain `nope` is not in the library',
        'intake.yaml:3:11: warning: schedule 0: repo `/srv/app` is not connected (not in repos.yaml)',
        '',
      ].join('\n'),
      stderr: '',
    });
  });
});

describe('POST /api/apply/restart', () => {
  it('answers 409 not_supervised when no service manager started the server', async () => {
    const res = await http(`${jig.url}/api/apply/restart`, { method: 'POST' });
    expect(res.status).toBe(409);
    expect(res.json).toEqual({
      detail:
        'no service manager started this server (systemd sets INVOCATION_ID; under another manager set JIG_SUPERVISED=1), so nothing would start it again; restart it yourself',
      code: 'not_supervised',
    });
    expect((await health()).status).toBe('ok');
  });

  it('answers 202, then stops cleanly and exits 75 so the service manager starts it again', async () => {
    const sup = await startJig({ env: { JIG_SUPERVISED: '1', INVOCATION_ID: '' } });
    expect((await http(`${sup.url}/api/apply`)).json.supervised).toBe(true);
    const res = await http(`${sup.url}/api/apply/restart`, { method: 'POST' });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({
      restarting: true,
      exit_code: 75,
      detail: 'stopping; the process exits with 75 and the service manager starts it again',
    });
    expect(await sup.exited).toEqual({ code: 75, signal: null });
    expect(existsSync(join(sup.home, 'run', 'jig.pid'))).toBe(false);
    const log = readFileSync(join(sup.home, 'run', 'logs', 'server.log'), 'utf8');
    expect(log).toContain('"signal":"restart"');
    expect(log).toContain('"msg":"jig stopped"');
  });

  it('under systemd (INVOCATION_ID set) counts as supervised', async () => {
    const sup = await startJig({ env: { INVOCATION_ID: 'abc123', JIG_SUPERVISED: '' } });
    expect((await http(`${sup.url}/api/apply`)).json.supervised).toBe(true);
  });
});
