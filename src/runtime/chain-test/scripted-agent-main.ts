import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { AgentScript, answerFor, type ScriptedAnswer } from '../../contract/chain-test.js';
import { takeAttempt } from './attempt-counter.js';

/*
 * The agent CLI of a chain test (issue 51, docs/chain-tests.md): it answers from a script instead of
 * a model, speaking Claude Code's `stream-json` so the engine reads it as it reads Claude Code
 * (usage, reported cost, failures), and writes what the script says an agent leaves behind: the
 * result file, the task's document, files committed in its worktree.
 *
 * Its environment: $JIG_CHAIN_TEST_SCRIPT (the agents' script as JSON), $JIG_CHAIN_TEST_STATE (a
 * folder where it counts each task's sessions), and what Jig gives every task ($JIG_TASK_PATH,
 * $JIG_RESULT_PATH, $JIG_ARTIFACT_PATH). Arguments are Claude Code's; only `--resume` matters.
 */

const env = process.env;
const out = (o: unknown): void => void process.stdout.write(`${JSON.stringify(o)}\n`);

function fail(message: string): never {
  process.stderr.write(`scripted agent: ${message}\n`);
  process.exit(2);
}

/** A path the script names, inside the worktree or refused (a script is data, not a way out). */
function inside(root: string, p: string): string {
  const abs = resolve(root, p);
  const rel = relative(root, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) fail(`files: ${p} is outside the worktree`);
  return abs;
}

const pause = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Tasks of one step run at once in one worktree, so two scripted agents may commit together: one
 * finds the other's index.lock and waits for it, as a person at the same checkout would.
 */
function gitWaiting(cwd: string, args: string[]): void {
  for (let i = 0; ; i++) {
    try {
      execFileSync('git', args, { cwd, stdio: 'pipe' });
      return;
    } catch (err) {
      const out: unknown = err instanceof Error && 'stderr' in err ? err.stderr : '';
      const stderr = Buffer.isBuffer(out) ? out.toString() : typeof out === 'string' ? out : '';
      if (!stderr.includes('index.lock') || i >= 200) throw err;
      pause(50);
    }
  }
}

function writeFiles(a: ScriptedAnswer, taskPath: string): void {
  if (!a.files || Object.keys(a.files).length === 0) return;
  const root = process.cwd();
  for (const [p, text] of Object.entries(a.files)) {
    const abs = inside(root, p);
    if (text === null) rmSync(abs, { force: true });
    else {
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    }
  }
  const git = (...args: string[]): void => gitWaiting(root, args);
  git('add', '-A', '--', ...Object.keys(a.files));
  // The same text again (an answer that repeats) changes nothing: no commit, as an agent makes none.
  try {
    git('diff', '--cached', '--quiet');
    return;
  } catch {
    // Staged changes: committed below.
  }
  try {
    git(
      '-c',
      'user.name=Jig chain test',
      '-c',
      'user.email=chain-test@jig.invalid',
      'commit',
      '-q',
      '--no-verify',
      '-m',
      a.commit_message ?? `${taskPath}: scripted change`,
    );
  } catch (err) {
    // A sibling's commit took the same change in between: nothing is left to commit, and that is fine.
    try {
      git('diff', '--cached', '--quiet');
    } catch {
      throw err;
    }
  }
}

function usage(a: ScriptedAnswer): Record<string, number> {
  const t = a.tokens ?? { input: 0, output: 0, cache_read: 0, cache_write: 0 };
  return {
    input_tokens: t.input,
    output_tokens: t.output,
    cache_read_input_tokens: t.cache_read,
    cache_creation_input_tokens: t.cache_write,
  };
}

const MODEL = 'scripted';

function main(): void {
  const scriptPath = env.JIG_CHAIN_TEST_SCRIPT;
  const stateDir = env.JIG_CHAIN_TEST_STATE;
  const taskPath = env.JIG_TASK_PATH;
  if (!scriptPath || !stateDir || !taskPath)
    fail('JIG_CHAIN_TEST_SCRIPT, JIG_CHAIN_TEST_STATE and JIG_TASK_PATH must be set');
  const parsed = AgentScript.safeParse(JSON.parse(readFileSync(scriptPath, 'utf8')));
  if (!parsed.success) fail(`the script does not parse: ${parsed.error.issues[0]?.message ?? ''}`);
  const argv = process.argv.slice(2);
  const resumed = argv.indexOf('--resume');
  const session = resumed >= 0 ? (argv[resumed + 1] ?? randomUUID()) : randomUUID();
  const attempt = takeAttempt(stateDir, taskPath);
  const a = answerFor(parsed.data, taskPath, attempt);
  const base = { session_id: session };
  out({ type: 'system', subtype: 'init', cwd: process.cwd(), ...base, model: MODEL, tools: [] });
  if (a === null) {
    // No answer: the run says so as a failed session the report names (a divergence, not a guess).
    out({
      type: 'result',
      subtype: 'success',
      is_error: true,
      ...base,
      result: `the script has no answer for ${taskPath} (session ${attempt + 1})`,
      total_cost_usd: 0,
      usage: usage({ status: 'done' }),
    });
    process.exit(1);
  }
  if (a.fails === 'rate_limit') {
    const reset = Math.floor(Date.now() / 1000) + 3600;
    out({ type: 'rate_limit_event', rate_limit_info: { status: 'rejected', resetsAt: reset }, ...base });
    out({ type: 'result', subtype: 'success', is_error: true, ...base, result: "You've hit your limit" });
    process.exit(1);
  }
  if (a.fails === 'auth' || a.fails === 'error') {
    const status = a.fails === 'auth' ? 401 : 500;
    const text = a.fails === 'auth' ? 'Invalid API key · Please run /login' : 'API Error: 500 (scripted)';
    out({
      type: 'assistant',
      message: { id: randomUUID(), model: MODEL, role: 'assistant', content: [{ type: 'text', text }] },
      ...base,
      ...(a.fails === 'auth' ? { error: 'authentication_failed' } : {}),
    });
    out({
      type: 'result',
      subtype: 'success',
      is_error: true,
      api_error_status: status,
      ...base,
      result: text,
    });
    process.exit(1);
  }
  writeFiles(a, taskPath);
  const result: Record<string, unknown> = { status: a.status };
  for (const k of ['findings', 'verdict', 'concerns', 'question', 'suggested_action'] as const)
    if (a[k] !== undefined) result[k] = a[k];
  const artifact = env.JIG_ARTIFACT_PATH;
  if (artifact && a.document !== undefined) {
    mkdirSync(dirname(artifact), { recursive: true });
    writeFileSync(artifact, a.document);
    result.artifact_ref = relative(process.cwd(), artifact);
  }
  const resultPath = env.JIG_RESULT_PATH;
  if (resultPath) writeFileSync(resultPath, JSON.stringify(result));
  const text = `scripted answer ${attempt + 1} for ${taskPath}: ${a.status}`;
  out({
    type: 'assistant',
    message: {
      id: randomUUID(),
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [{ type: 'text', text }],
      usage: usage(a),
    },
    ...base,
  });
  out({
    type: 'result',
    subtype: 'success',
    is_error: false,
    num_turns: 1,
    ...base,
    result: text,
    total_cost_usd: a.cost_usd ?? 0,
    usage: usage(a),
    modelUsage: {
      [MODEL]: {
        inputTokens: a.tokens?.input ?? 0,
        outputTokens: a.tokens?.output ?? 0,
        cacheReadInputTokens: a.tokens?.cache_read ?? 0,
        cacheCreationInputTokens: a.tokens?.cache_write ?? 0,
        costUSD: a.cost_usd ?? 0,
      },
    },
  });
}

main();
