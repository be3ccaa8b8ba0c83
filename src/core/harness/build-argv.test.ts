import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ProviderDefinition } from '../../contract/harness/provider.js';
import { buildArgv, tomlString, type LaunchInputs } from './build-argv.js';
import { loadProviders } from './load-providers.js';

const dir = fileURLToPath(new URL('../../../defaults/harnesses/', import.meta.url));
const loaded = loadProviders({
  packaged: readdirSync(dir).map((f) => ({
    file: `defaults/harnesses/${f}`,
    text: readFileSync(dir + f, 'utf8'),
  })),
});
const def = (id: string): ProviderDefinition => {
  const d = loaded.providers[id];
  if (!d) throw new Error(`no provider ${id}`);
  return d;
};
const argv = (id: string, inputs: LaunchInputs): string[] => {
  const b = buildArgv(def(id), inputs);
  if (!b.ok) throw new Error(b.reason);
  return b.argv;
};
const refusal = (id: string, inputs: LaunchInputs): string => {
  const b = buildArgv(def(id), inputs);
  if (b.ok) throw new Error(`expected a refusal, got ${b.argv.join(' ')}`);
  return b.reason;
};

describe('buildArgv: golden argv per provider', () => {
  it('packaged providers all load', () => {
    expect(loaded.problems).toEqual([]);
    expect(Object.keys(loaded.providers).sort()).toEqual([
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
  });

  it('claude: everything', () => {
    expect(
      argv('claude', {
        prompt: 'Fix the bug',
        context: 'CONTRACT',
        model: 'sonnet',
        effort: 'high',
        permission_mode: 'default',
        allowed_tools: ['Bash(git commit:*)', 'Edit'],
        denied_tools: ['WebFetch', 'Monitor'],
        resume_session_id: 'f0eaaa8a-f14d-4861-a6cf-1c830d72eaa6',
      }),
    ).toEqual([
      'claude',
      '-p',
      'Fix the bug',
      '--append-system-prompt',
      'CONTRACT',
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'sonnet',
      '--effort',
      'high',
      '--permission-mode',
      'default',
      '--allowedTools',
      'Bash(git commit:*),Edit',
      '--disallowedTools',
      'WebFetch,Monitor',
      '--resume',
      'f0eaaa8a-f14d-4861-a6cf-1c830d72eaa6',
    ]);
  });

  it('claude: minimal (no context, no model) and the executable override', () => {
    expect(argv('claude', { prompt: 'hi', executable: '/opt/bin/claude' })).toEqual([
      '/opt/bin/claude',
      '-p',
      'hi',
      '--output-format',
      'stream-json',
      '--verbose',
    ]);
  });

  it('codex: new session, context as developer_instructions (TOML-quoted), sandbox default', () => {
    expect(
      argv('codex', {
        prompt: 'Fix it',
        context: 'Be "careful"\nalways',
        model: 'gpt-5-codex',
        effort: 'high',
      }),
    ).toEqual([
      'codex',
      'exec',
      '--json',
      '-c',
      'developer_instructions="Be \\"careful\\"\\nalways"',
      '-m',
      'gpt-5-codex',
      '-c',
      'model_reasoning_effort="high"',
      '-c',
      'sandbox_mode="workspace-write"',
      'Fix it',
    ]);
  });

  it('codex: resume is `codex exec resume … <id> <prompt>`', () => {
    expect(
      argv('codex', {
        prompt: 'Go on',
        effort: 'low',
        resume_session_id: '01a203c3-b25a-7403-8523-6d28bcb6ba10',
      }),
    ).toEqual([
      'codex',
      'exec',
      'resume',
      '--json',
      '-c',
      'model_reasoning_effort="low"',
      '-c',
      'sandbox_mode="workspace-write"',
      '01a203c3-b25a-7403-8523-6d28bcb6ba10',
      'Go on',
    ]);
  });

  it('gemini: context inline in the prompt, yolo by default, trust for the session', () => {
    expect(argv('gemini', { prompt: 'Fix it', context: 'CONTRACT', model: 'gemini-2.5-pro' })).toEqual([
      'gemini',
      '-p',
      'CONTRACT\n\n---\n\nFix it',
      '-o',
      'stream-json',
      '-m',
      'gemini-2.5-pro',
      '--approval-mode',
      'yolo',
      '--skip-trust',
    ]);
  });

  it('the unverified providers, and OpenCode (the prompt after `--`)', () => {
    expect(argv('cursor', { prompt: 'p', model: 'gpt-5', resume_session_id: 'c1' })).toEqual([
      'agent',
      '-p',
      'p',
      '--output-format',
      'stream-json',
      '--model',
      'gpt-5',
      '--auto-review',
      '--resume',
      'c1',
      '--trust',
    ]);
    expect(argv('opencode', { prompt: 'p', context: 'C', model: 'anthropic/claude-sonnet-4-5' })).toEqual([
      'opencode',
      'run',
      '--format',
      'json',
      '--model',
      'anthropic/claude-sonnet-4-5',
      '--auto',
      '--',
      'C\n\n---\n\np',
    ]);
    expect(argv('amp', { prompt: 'p', effort: 'high' })).toEqual([
      'amp',
      '-x',
      'p',
      '--stream-json',
      '-m',
      'high',
      '--no-archive-after-execute',
    ]);
    expect(
      argv('antigravity', { prompt: 'p', model: 'gemini-3-pro', effort: 'high', resume_session_id: 'k' }),
    ).toEqual([
      'agy',
      '-p',
      'p',
      '--output-format',
      'stream-json',
      '--model',
      'gemini-3-pro',
      '--effort',
      'high',
      '--dangerously-skip-permissions',
      '--conversation',
      'k',
    ]);
  });

  it('auggie: the argv recorded against the stand-in backend; resume; tool lists refused', () => {
    // test/fixtures/harness-streams/auggie/success-jig-argv.captured.jsonl ran exactly these words.
    expect(argv('auggie', { prompt: 'Fix it', context: 'CONTRACT', model: 'mock', effort: 'high' })).toEqual([
      'auggie',
      '--instruction',
      'CONTRACT\n\n---\n\nFix it',
      '--print',
      '--output-format',
      'json',
      '--model',
      'mock',
      '--reasoning-effort',
      'high',
      '--show-cost',
      '--retry-timeout',
      '300',
    ]);
    expect(
      argv('auggie', { prompt: 'Go on', resume_session_id: '3cf626b7-a521-4010-8ea0-8d8493a0c8b0' }),
    ).toEqual([
      'auggie',
      '--instruction',
      'Go on',
      '--print',
      '--output-format',
      'json',
      '--resume',
      '3cf626b7-a521-4010-8ea0-8d8493a0c8b0',
      '--show-cost',
      '--retry-timeout',
      '300',
    ]);
    const b = buildArgv(def('auggie'), { prompt: 'p', permission_mode: 'default' });
    expect(b.ok && b.ignored).toEqual(['permission_mode (auggie has no permission_mode option)']);
    expect(b.ok && b.env).toEqual({ AUGMENT_DISABLE_AUTO_UPDATE: '1' });
    expect(refusal('auggie', { prompt: 'p', allowed_tools: ['Bash'] })).toBe(
      'auggie cannot enforce an allowed-tools list',
    );
    expect(refusal('auggie', { prompt: 'p', denied_tools: ['launch-process'] })).toBe(
      'auggie cannot enforce a denied-tools list',
    );
    expect(refusal('auggie', { prompt: 'p', effort: 'max' })).toMatch(/effort `max`/);
  });
});

describe('buildArgv: rules', () => {
  it('a prompt starting with "-" gets a leading space so no option parser takes it', () => {
    expect(argv('claude', { prompt: '- fix the list' })[2]).toBe(' - fix the list');
    expect(argv('codex', { prompt: '--help me' }).at(-1)).toBe(' --help me');
  });

  it('refuses what the CLI cannot honour', () => {
    expect(refusal('gemini', { prompt: 'p', allowed_tools: ['Bash'] })).toMatch(/allowed-tools/);
    expect(refusal('gemini', { prompt: 'p', denied_tools: ['Bash'] })).toMatch(/denied-tools/);
    expect(refusal('gemini', { prompt: 'p', resume_session_id: 'x' })).toMatch(/cannot resume/);
    expect(refusal('claude', { prompt: 'p', effort: 'extreme' })).toMatch(/effort `extreme`/);
    expect(refusal('claude', { prompt: 'p', permission_mode: 'yolo' })).toMatch(/permission_mode/);
    expect(refusal('claude', { prompt: 'p', model: 'gpt-5' })).toMatch(/model `gpt-5`/);
  });

  it('ignores, and says so, a model or effort the CLI has no option for', () => {
    const b = buildArgv(def('amp'), { prompt: 'p', model: 'x' });
    expect(b.ok && b.ignored).toEqual(['model (amp has no model option)']);
  });

  it('a mode that runs every tool is left out when the task lists its tools, and said so', () => {
    const restricted = buildArgv(def('qwen'), {
      prompt: 'p',
      permission_mode: 'yolo',
      allowed_tools: ['read_file'],
    });
    expect(restricted.ok && restricted.argv).toEqual([
      'qwen',
      'p',
      '--output-format',
      'stream-json',
      '--allowed-tools',
      'read_file',
    ]);
    expect(restricted.ok && restricted.ignored).toEqual([
      "permission_mode yolo (it runs every tool; the task's allowed_tools hold in the CLI's default mode)",
    ]);
    expect(argv('qwen', { prompt: 'p', permission_mode: 'yolo' })).toContain('yolo');
    // The whole working set (what a task with no list is granted), less a denied tool, holds nothing back.
    const whole = def('qwen').capabilities.allowed_tools!.unrestricted!;
    const open = { prompt: 'p', permission_mode: 'yolo', denied_tools: ['web_fetch'] };
    expect(argv('qwen', { ...open, allowed_tools: whole.filter((t) => t !== 'web_fetch') })).toContain(
      'yolo',
    );
    expect(argv('qwen', { prompt: 'p', permission_mode: 'auto-edit', allowed_tools: ['edit'] })).toContain(
      'auto-edit',
    );
    const copilot = argv('copilot', { prompt: 'p', allowed_tools: ['write'] });
    expect(copilot.filter((w) => w.startsWith('--allow'))).toEqual(['--allow-tool=write']);
    expect(argv('copilot', { prompt: 'p' })).toContain('--allow-all-tools');
    const claude = argv('claude', {
      prompt: 'p',
      permission_mode: 'bypassPermissions',
      allowed_tools: ['Read'],
    });
    expect(claude).not.toContain('--permission-mode');
  });

  it('empty tool lists write no flag; extra args go at the extra slot', () => {
    expect(
      argv('claude', { prompt: 'p', allowed_tools: [], denied_tools: [], extra_args: ['--max-turns', '3'] }),
    ).toEqual(['claude', '-p', 'p', '--output-format', 'stream-json', '--verbose', '--max-turns', '3']);
  });

  it("the permission prompt's environment comes with it, and only with it", () => {
    const asked = buildArgv(def('claude'), { prompt: 'p', permission_prompt: '{"mcpServers":{}}' });
    const plain = buildArgv(def('claude'), { prompt: 'p' });
    expect([asked.ok && asked.env, plain.ok && plain.env]).toEqual([
      { MCP_CONNECTION_NONBLOCKING: 'false' },
      {},
    ]);
  });

  it('tomlString escapes quotes, backslashes and control characters', () => {
    expect(tomlString('a"b\\c\n\t\u0001\u007f')).toBe('"a\\"b\\\\c\\n\\t\\u0001\\u007f"');
    expect(tomlString('true')).toBe('"true"');
  });
});

describe('tool policy through a pre-tool hook (Codex, Cursor)', () => {
  const hook = { args: ['-c', 'hooks.PreToolUse=[…]'] };

  it('refuses a tool list a CLI has neither flags nor a hook for', () => {
    expect(refusal('codex', { prompt: 'p', allowed_tools: ['Read'] })).toBe(
      'codex cannot enforce an allowed-tools list',
    );
    expect(refusal('gemini', { prompt: 'p', denied_tools: ['Bash'], permission_hook: hook })).toBe(
      'gemini cannot enforce a denied-tools list',
    );
  });

  it('codex: the hook enforces the list, and web search (which never reaches it) is switched off', () => {
    const words = argv('codex', { prompt: 'p', allowed_tools: ['Read', 'Bash'], permission_hook: hook });
    expect(words.slice(0, 2)).toEqual(['codex', 'exec']);
    const at = words.indexOf('hooks.PreToolUse=[…]');
    expect(words.slice(at - 1, at + 3)).toEqual([
      '-c',
      'hooks.PreToolUse=[…]',
      '-c',
      'web_search="disabled"',
    ]);
    // A policy that lets web search through leaves it as it is.
    const open = argv('codex', { prompt: 'p', allowed_tools: ['Read', 'WebSearch'], permission_hook: hook });
    expect(open).not.toContain('web_search="disabled"');
    expect(open).toContain('hooks.PreToolUse=[…]');
    const denied = argv('codex', { prompt: 'p', denied_tools: ['WebSearch'], permission_hook: hook });
    expect(denied).toContain('web_search="disabled"');
  });

  it('cursor: a policy denying a tool that never reaches its hook refuses the launch', () => {
    expect(refusal('cursor', { prompt: 'p', allowed_tools: ['Read'], permission_hook: { args: [] } })).toBe(
      'cursor: WebFetch never reaches its hook, so a policy that denies it cannot be enforced; allow WebFetch or pick another harness',
    );
    const ok = argv('cursor', {
      prompt: 'p',
      allowed_tools: ['Read', 'WebFetch', 'WebSearch'],
      permission_hook: { args: [] },
    });
    expect(ok).toEqual(['agent', '-p', 'p', '--output-format', 'stream-json', '--auto-review', '--trust']);
  });
});
