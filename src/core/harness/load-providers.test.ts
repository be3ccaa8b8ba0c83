import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProviders, type ProviderSource } from './load-providers.js';

const dir = fileURLToPath(new URL('../../../defaults/harnesses/', import.meta.url));
const packaged: ProviderSource[] = readdirSync(dir).map((f) => ({
  file: `defaults/harnesses/${f}`,
  text: readFileSync(dir + f, 'utf8'),
}));

describe('loadProviders', () => {
  it('loads every packaged provider, each recording what it was verified with', () => {
    const { providers, problems } = loadProviders({ packaged });
    expect(problems).toEqual([]);
    expect(providers['claude']?.verified_with).toEqual({
      package: '@anthropic-ai/claude-code',
      version: '2.1.197',
      date: '2026-11-22',
    });
    expect(providers['codex']?.verified_with?.version).toBe('0.169.0');
    expect(providers['gemini']?.verified_with?.version).toBe('0.61.0');
    for (const [id, pkg] of [
      ['opencode', 'opencode-ai'],
      ['kilo', '@kilocode/cli'],
      ['qwen', '@qwen-code/qwen-code'],
      ['copilot', '@github/copilot'],
      ['droid', '@factory/cli-linux-x64'],
    ] as const) {
      expect(providers[id]?.verified_with?.package).toBe(pkg);
      expect(providers[id]?.verified_with?.date).toBe('2026-12-01');
    }
    for (const id of ['cursor', 'amp', 'antigravity']) {
      expect(providers[id]?.verified_with).toBeNull();
      expect(providers[id]?.source).toMatch(/kraft-notes/);
    }
    // Run for real, but against a stand-in of Augment's backend, not Jig's mock model.
    expect(providers['auggie']?.verified_with).toBeNull();
    expect(providers['auggie']?.source).toMatch(/captured runs of @augmentcode\/auggie 0\.36\.0/);
    expect(providers['auggie']?.mock).toBeUndefined();
    expect(Object.keys(providers)).toHaveLength(12);
  });

  it('merges a user file over the packaged one by id: maps merge, lists replace', () => {
    const user: ProviderSource = {
      file: 'config/harnesses/claude.yaml',
      text: [
        'command: [/opt/claude/bin/claude]',
        'capabilities:',
        '  model:',
        "    values: ['^my-model$']",
        'env:',
        '  CLAUDE_CODE_MAX_RETRIES: "0"',
        '',
      ].join('\n'),
    };
    const { providers, problems } = loadProviders({ packaged, user: [user] });
    expect(problems).toEqual([]);
    const c = providers['claude']!;
    expect(c.command).toEqual(['/opt/claude/bin/claude']);
    expect(c.capabilities.model).toEqual({ args: ['--model', '{value}'], values: ['^my-model$'] });
    expect(c.capabilities.effort?.args).toEqual(['--effort', '{value}']);
    expect(c.env).toEqual({ CLAUDE_CODE_MAX_RETRIES: '0' });
    expect(c.reader.hooks).toEqual(['claude_message_usage']);
  });

  it('a user file with a new id adds a provider (pure configuration)', () => {
    const text = `id: mycli
kind: cli
display_name: My CLI
command: [mycli, run]
order: [structured_log, model, prompt]
capabilities:
  prompt: { args: ['{value}'] }
  context: { channel: prompt }
  structured_log: { args: [--jsonl] }
  model: { args: [--model, '{value}'] }
reader:
  rules:
    - when: { $.kind: start }
      set: { session_id: $.id }
    - when: { $.kind: end }
      set: { done: { const: true }, tokens.input: $.in, tokens.output: $.out }
verified_with: null
`;
    const { providers, problems } = loadProviders({
      packaged,
      user: [{ file: 'config/harnesses/mycli.yaml', text }],
    });
    expect(problems).toEqual([]);
    expect(providers['mycli']?.capabilities.context).toEqual({
      channel: 'prompt',
      template: '{context}\n\n---\n\n{prompt}',
    });
  });

  it('problems name the file, line and column that wrote the bad value', () => {
    const user: ProviderSource = {
      file: 'config/harnesses/codex.yaml',
      text: 'capabilities:\n  effort:\n    values: ["(unclosed"]\n',
    };
    const { providers, problems } = loadProviders({ packaged, user: [user] });
    expect(providers['codex']).toBeUndefined();
    expect(providers['claude']).toBeDefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      file: 'config/harnesses/codex.yaml',
      line: 3,
      message: expect.stringMatching(/regular expression/),
    });
  });

  it('an unknown key is a problem at its place; a bad YAML file too', () => {
    const { problems } = loadProviders({
      packaged,
      user: [
        { file: 'config/harnesses/gemini.yaml', text: 'capabilities:\n  resum:\n    args: [-r]\n' },
        { file: 'config/harnesses/amp.yaml', text: 'command: [amp\n' },
      ],
    });
    expect(problems.find((p) => p.file === 'config/harnesses/gemini.yaml')).toMatchObject({
      line: 2,
      col: 3,
    });
    expect(problems.find((p) => p.file === 'config/harnesses/amp.yaml')?.line).not.toBeNull();
  });

  it('an id that does not match the file name is refused', () => {
    const { problems } = loadProviders({
      packaged,
      user: [{ file: 'config/harnesses/claude.yaml', text: 'id: codex\n' }],
    });
    expect(problems).toEqual([
      expect.objectContaining({ file: 'config/harnesses/claude.yaml', field: 'id', line: 1, col: 1 }),
    ]);
  });

  it('a new provider missing required keys reports them', () => {
    const { providers, problems } = loadProviders({
      packaged: [],
      user: [{ file: 'config/harnesses/half.yaml', text: 'id: half\nkind: cli\n' }],
    });
    expect(providers).toEqual({});
    expect(problems.map((p) => p.field ?? p.path).join(' ')).toMatch(/command/);
  });
});
