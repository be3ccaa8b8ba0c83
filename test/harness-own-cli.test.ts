import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { agentSetup, harnessesYaml, sessions } from './helpers/agents.js';
import { events, fileItem, until } from './helpers/engine.js';
import { git } from './helpers/git.js';
import { cleanupAll, http } from './helpers/server.js';

/*
 * "A harness is data, wholly": a CLI Jig has never heard of, added by a provider file in
 * config/harnesses/ and an entry in harnesses.yaml, with no code, runs a task. The CLI here is a
 * small script with a stream format of its own (not any shipped reader's), so everything Jig reads
 * of it comes from the file's declarations: argv, session id, model, tokens (added up over
 * events), the final text, and a dollar figure from the price table by its model.
 */

afterAll(cleanupAll);

const dir = mkdtempSync(join(tmpdir(), 'jig-own-cli-'));

/** `tinyagent --jsonl --llm M -- PROMPT`: events `{t: hi|use|done}`, then commits and writes its result. */
const CLI = `#!/usr/bin/env node
const { execFileSync } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const a = process.argv.slice(2);
const model = a[a.indexOf('--llm') + 1];
const prompt = a[a.indexOf('--') + 1];
const out = (e) => process.stdout.write(JSON.stringify(e) + '\\n');
out({ t: 'hi', sid: 'tiny-42', llm: model, at: Date.now() });
out({ t: 'use', n: { in: 1500, out: 100, hit: 500 } });
writeFileSync('hello.txt', prompt.includes('hello') ? 'hello\\n' : 'other\\n');
execFileSync('git', ['add', 'hello.txt']);
execFileSync('git', ['commit', '-q', '-m', 'tiny: add hello']);
writeFileSync(process.env.JIG_RESULT_PATH, JSON.stringify({ status: 'done' }));
out({ t: 'use', n: { in: 500, out: 300, hit: 0 } });
out({ t: 'done', text: 'Added hello.txt.' });
`;

const PROVIDER = `
id: tinyagent
kind: cli
display_name: Tiny Agent
command: [tinyagent]
order: [structured_log, model, prompt]
capabilities:
  prompt: { args: ['--', '{value}'] }
  context: { channel: prompt, template: "{context}\\n\\n{prompt}" }
  structured_log: { args: [--jsonl] }
  model: { args: [--llm, '{value}'], values: ['^claude-'] }
reader:
  format: jsonl
  rules:
    - when: { $.t: hi }
      set: { session_id: $.sid, model: $.llm }
    - when: { $.t: use }
      add: { tokens.input: $.n.in, tokens.output: $.n.out, tokens.cache_read: $.n.hit }
    - when: { $.t: done }
      set: { done: { const: true }, final_text: $.text }
rate_limit_signal: false
usage_reported: live
verified_with: null
`;

const CHAIN = `
nodes:
  - id: build
    kind: exec
    tasks:
      - id: implement
        kind: agent
        harness: tiny
        prompt: Add hello.txt and commit it.
`;

describe('a CLI added as data alone', () => {
  it('runs a task: argv from its file, its own stream read into tokens, model, text and dollars', async () => {
    mkdirSync(join(dir, 'bin'));
    const exe = join(dir, 'bin', 'tinyagent');
    writeFileSync(exe, CLI);
    chmodSync(exe, 0o755);
    const doc = parseDocument(harnessesYaml());
    doc.setIn(['harnesses', 'tiny'], doc.createNode({ provider: 'tinyagent', executable: exe }));
    doc.setIn(['harnesses', 'tiny', 'defaults'], doc.createNode({ model: 'claude-sonnet-4-5' }));
    const { jig, repo, home } = await agentSetup({ one: CHAIN }, { harnesses: doc.toString() });
    // Read at each launch: no restart.
    mkdirSync(join(home, 'config', 'harnesses'), { recursive: true });
    writeFileSync(join(home, 'config', 'harnesses', 'tinyagent.yaml'), PROVIDER);

    const listed = await http(`${jig.url}/api/harnesses/providers/tinyagent`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json).toMatchObject({
      id: 'tinyagent',
      display_name: 'Tiny Agent',
      table: { steer: 'restart', tool_control: 'none', cost: 'estimated', mcp: false, sandbox: false },
      verified_with: null,
    });

    const item = await fileItem(jig, repo, 'one');
    const done = await until(jig, item.id, (i) => ['completed', 'stopped'].includes(i.status));
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    expect(git(repo, 'log', '-1', '--format=%s', done.branch)).toBe('tiny: add hello');
    const started = (await events(jig, item.id)).find((e) => e.type === 'worker_session_started');
    expect(started.payload.argv).toEqual([
      exe,
      '--jsonl',
      '--llm',
      'claude-sonnet-4-5',
      '--',
      expect.any(String),
    ]);
    expect(started.payload.argv[5]).toMatch(/Add hello\.txt and commit it\.$/);
    const [s, ...more] = await sessions(jig, item.id);
    expect(more).toEqual([]);
    expect(s).toMatchObject({
      status: 'done',
      harness: 'tiny',
      provider: 'tinyagent',
      cli_session_id: 'tiny-42',
      model: 'claude-sonnet-4-5',
      tokens: { input: 2000, output: 400, cache_read: 500, cache_write: 0 },
      cost_source: 'estimated',
    });
    expect(s.readout.final_text).toBe('Added hello.txt.');
    // Priced by its model from Claude's table though no shipped CLI ran it: $3 in, $15 out,
    // $0.30 cache read per million tokens.
    expect(s.cost_usd).toBeCloseTo((2000 * 3 + 400 * 15 + 500 * 0.3) / 1e6, 12);
    expect(done.spent_usd).toBeCloseTo(s.cost_usd, 12);
  });
});
