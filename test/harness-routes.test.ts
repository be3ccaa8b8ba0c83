import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupAll, http, repoRoot, runJig, startJig, tempHome } from './helpers/server.js';

afterAll(cleanupAll);

const fakes = join(repoRoot, 'test', 'fixtures', 'fake-agents');

describe('GET /api/harnesses and /api/harnesses/providers', () => {
  it('says which harness CLIs are installed here, and what each provider can take', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'config'), { recursive: true });
    writeFileSync(
      join(home, 'config', 'harnesses.yaml'),
      `harnesses:\n  claude:\n    provider: claude\n    executable: ${join(fakes, 'claude')}\n  codex:\n    provider: codex\n    executable: no-such-codex-here\n  gem:\n    provider: gemini\n    enabled: false\nprofiles: {}\n`,
    );
    // A PATH with no agent CLI on it, whatever this machine has installed.
    const jig = await startJig({ home, env: { PATH: '/usr/bin:/bin' } });
    const r = await http(`${jig.url}/api/harnesses`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      harnesses: [
        {
          id: 'claude',
          provider: 'claude',
          enabled: true,
          executable: join(fakes, 'claude'),
          path: join(fakes, 'claude'),
          installed: true,
          version: null,
          verified_with: '@anthropic-ai/claude-code@2.1.197',
        },
        {
          id: 'codex',
          provider: 'codex',
          enabled: true,
          executable: 'no-such-codex-here',
          path: null,
          installed: false,
          version: null,
          verified_with: '@openai/codex@0.169.0',
        },
        {
          id: 'gem',
          provider: 'gemini',
          enabled: false,
          executable: 'gemini',
          path: null,
          installed: false,
          version: null,
          verified_with: '@google/gemini-cli@0.61.0',
        },
      ],
      problems: [],
    });

    const p = await http(`${jig.url}/api/harnesses/providers`);
    expect(p.status).toBe(200);
    expect(p.json.providers.map((x: { id: string }) => x.id)).toEqual([
      'amp',
      'antigravity',
      'auggie',
      'claude',
      'codex',
      'copilot',
      'cursor',
      'droid',
      'gemini',
      'kilo',
      'opencode',
      'qwen',
    ]);
    const claude = p.json.providers.find((x: { id: string }) => x.id === 'claude');
    expect(claude.capabilities).toEqual({
      system_prompt: 'flag',
      model: true,
      effort: true,
      permission_mode: true,
      allowed_tools: true,
      denied_tools: true,
      permission_prompt: true,
      permission_hook: null,
      resume: true,
    });
    const codex = p.json.providers.find((x: { id: string }) => x.id === 'codex');
    expect(codex.capabilities).toMatchObject({
      allowed_tools: false,
      permission_prompt: false,
      permission_hook: 'codex_config',
    });
    const cursor = p.json.providers.find((x: { id: string }) => x.id === 'cursor');
    expect(cursor.capabilities.permission_hook).toBe('cursor_hooks_file');
    const gemini = p.json.providers.find((x: { id: string }) => x.id === 'gemini');
    expect(gemini.capabilities.system_prompt).toBe('inline');
    expect(gemini.capabilities.resume).toBe(false);

    // The comparison table, every provider: steer, tool control, cost, MCP, sandbox.
    const table = Object.fromEntries(
      p.json.providers.map((x: { id: string; table: Record<string, unknown> }) => [
        x.id,
        Object.values(x.table).join(' '),
      ]),
    );
    expect(table).toEqual({
      amp: 'restart none estimated false false',
      antigravity: 'resume none estimated false false',
      auggie: 'resume none reported false false',
      claude: 'resume flags reported true true',
      codex: 'resume hook estimated false true',
      copilot: 'resume flags none false true',
      cursor: 'resume hook estimated false false',
      droid: 'resume flags estimated false true',
      gemini: 'restart none estimated false true',
      kilo: 'resume none estimated false true',
      opencode: 'resume none estimated false true',
      qwen: 'resume flags estimated false true',
    });

    const list = await runJig(['admin', 'harnesses'], { JIG_HOME: home });
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(
      `claude\tclaude\t${join(fakes, 'claude')}\tinstalled\ncodex\tcodex\tno-such-codex-here\tnot installed\ngem\tgemini\tgemini\tdisabled\n`,
    );
    const one = await runJig(['admin', 'harnesses', 'claude'], { JIG_HOME: home });
    expect(one.stdout.split('\n')[0]).toBe('claude: claude, enabled');
    const none = await runJig(['admin', 'harnesses', 'nope'], { JIG_HOME: home });
    expect(none).toMatchObject({ code: 1, stderr: 'jig: no harness nope in harnesses.yaml\n' });
  });
});

describe('single provider and profile views', () => {
  it('answers one provider and one profile as the lists do, 404 naming an unknown one', async () => {
    const jig = await startJig();
    const all = (await http(`${jig.url}/api/harnesses/providers`)).json.providers;
    const claude = await http(`${jig.url}/api/harnesses/providers/claude`);
    expect(claude.status).toBe(200);
    expect(claude.json).toEqual(all.find((p: any) => p.id === 'claude'));
    const profiles = (await http(`${jig.url}/api/harnesses/profiles`)).json.profiles;
    expect(profiles.length).toBeGreaterThan(0);
    const first = profiles[0];
    const one = await http(`${jig.url}/api/harnesses/profiles/${first.name}`);
    expect(one.json).toEqual(first);
    const none = await http(`${jig.url}/api/harnesses/providers/nope`);
    expect(none.status).toBe(404);
    expect(none.json).toMatchObject({ code: 'not_found', detail: 'provider nope not found' });
    expect((await http(`${jig.url}/api/harnesses/profiles/nope`)).json.detail).toBe('profile nope not found');
  });
});
