import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { ProviderDefinition, SessionReadout } from '../../contract/harness/provider.js';
import type { ProviderMock } from '../../contract/harness/provider-mock.js';
import { buildArgv } from '../../core/harness/build-argv.js';
import { createReader } from '../../core/harness/readers/reader.js';
import { startMockModelServer } from './mock-model/server.js';

const run = promisify(execFile);

/*
 * `jig admin harnesses test ID`: one real run of a declared CLI against Jig's mock model server,
 * in a throwaway git repository with a private HOME, read with the provider's own reader. The
 * model asks the CLI to write a file with its shell tool, then says it is done; the answer says
 * what Jig read and what did not come through, so a provider written as YAML is checked before a
 * task spends anything on it.
 */

export const TEST_FILE = 'jig-harness-test.txt';
const TEST_COMMAND = `echo jig-harness-test > ${TEST_FILE}`;
const FINAL = 'Done: the file is written.';

export interface HarnessTestInput {
  def: ProviderDefinition;
  /** The harness entry's executable (a name on PATH or a path). */
  executable: string;
  /** Where the run's folder goes (the home's `run/`: Codex refuses a home under the system temp dir). */
  runDir: string;
  timeoutMs: number;
  /** Keep the folder (HOME, repository, streams) for a look afterwards. */
  keep: boolean;
  /** The server's PATH, so the CLI and its interpreter are found. */
  path: string;
}

export interface HarnessTestResult {
  argv: string[];
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  duration_ms: number;
  readout: SessionReadout;
  stream: { lines: number; json_lines: number; stderr_tail: string };
  mock: { api: ProviderMock['api']; requests: number; model_calls: number; models: string[] };
  /** Whether the shell command the model asked for ran in the repository. */
  tool_ran: boolean;
  /** Empty when everything a task needs was read; else what was missing, in words. */
  problems: string[];
  /** The kept folder, or null. */
  folder: string | null;
}

/** `{mock_url}` and `{home}` filled in a declared value. */
function fill(text: string, vars: { mock_url: string; home: string }): string {
  return text.replaceAll('{mock_url}', vars.mock_url).replaceAll('{home}', vars.home);
}

/** The private HOME's config files and the run's variables and arguments, as the provider declares them. */
export function mockSetup(
  mock: ProviderMock,
  vars: { mock_url: string; home: string },
): { env: Record<string, string>; args: string[] } {
  for (const f of mock.files) {
    const target = join(vars.home, f.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, fill(f.text, vars));
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(mock.env)) env[k] = fill(v, vars);
  return { env, args: mock.args.map((a) => fill(a, vars)) };
}

async function makeRepo(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    run('git', ['-c', 'user.name=Jig', '-c', 'user.email=jig@localhost', ...args], { cwd: dir });
  await git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README.md'), '# harness test\n');
  await git('add', 'README.md');
  await git('commit', '-q', '-m', 'start');
}

function problemsOf(r: HarnessTestResult, def: ProviderDefinition): string[] {
  const out: string[] = [];
  if (r.timed_out) out.push(`it did not end within the time allowed (ended by Jig)`);
  else if (r.exit_code !== 0) out.push(`it exited ${r.exit_code ?? r.signal ?? '?'}`);
  if (r.mock.model_calls === 0)
    out.push('it never called the mock model: check the `mock:` block (base URL, key)');
  if (!r.tool_ran) out.push(`the shell command the model asked for did not run (${TEST_FILE} is missing)`);
  if (r.stream.json_lines === 0) out.push('no JSON line on stdout: check structured_log');
  const x = r.readout;
  if (x.is_error) out.push(`the reader marked the session failed: ${x.error_message ?? 'no message'}`);
  if (def.capabilities.resume && x.session_id === null) out.push('no session id read (resume needs it)');
  const tokens = x.tokens.input + x.tokens.output + x.tokens.cache_read + x.tokens.cache_write;
  if (tokens === 0 && x.cost_usd_reported === null)
    out.push('no tokens and no cost read: its runs would be unpriced');
  if (x.final_text === null || !x.final_text.includes(FINAL)) out.push('the final answer was not read');
  return out;
}

export async function testHarness(i: HarnessTestInput): Promise<HarnessTestResult> {
  const mock = i.def.mock;
  if (!mock) throw new Error(`provider ${i.def.id} declares no mock`);
  const folder = join(i.runDir, 'harness-tests', `${i.def.id}-${randomBytes(4).toString('hex')}`);
  const home = join(folder, 'home');
  const repo = join(folder, 'repo');
  mkdirSync(join(home, 'tmp'), { recursive: true });
  const server = await startMockModelServer([{ bash: TEST_COMMAND }, { say: FINAL }]);
  try {
    await makeRepo(repo);
    const vars = { mock_url: server.url, home };
    const setup = mockSetup(mock, vars);
    const built = buildArgv(i.def, {
      prompt: `Run the shell command \`${TEST_COMMAND}\`, then say "${FINAL}"`,
      context: 'Jig is checking that it can run and read this CLI.',
      model: mock.model ?? null,
      permission_mode: mock.permission_mode ?? null,
      allowed_tools: mock.allowed_tools ?? null,
      executable: i.executable,
      extra_args: setup.args,
    });
    if (!built.ok) throw new Error(built.reason);
    const env: Record<string, string> = {
      PATH: i.path,
      LANG: 'C.UTF-8',
      HOME: home,
      TMPDIR: join(home, 'tmp'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      XDG_CACHE_HOME: join(home, '.cache'),
      GIT_AUTHOR_NAME: 'Jig',
      GIT_AUTHOR_EMAIL: 'jig@localhost',
      GIT_COMMITTER_NAME: 'Jig',
      GIT_COMMITTER_EMAIL: 'jig@localhost',
      ...built.env,
      ...setup.env,
    };
    const [cmd, ...args] = built.argv;
    if (cmd === undefined) throw new Error('empty command');
    const reader = createReader(i.def);
    const started = Date.now();
    let lines = 0;
    let jsonLines = 0;
    let partial = '';
    let stderr = '';
    const child = spawn(cmd, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, i.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      const parts = (partial + text).split('\n');
      partial = parts.pop() ?? '';
      for (const p of parts) {
        lines++;
        if (p.trim().startsWith('{')) jsonLines++;
        reader.line(p);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr = (stderr + text).slice(-4000);
    });
    const { code, signal } = await new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      child.on('error', (e) => {
        stderr += `\n${e.message}`;
        resolve({ code: null, signal: null });
      });
      child.on('close', (c, s) => resolve({ code: c, signal: s }));
    });
    clearTimeout(timer);
    if (partial !== '') {
      lines++;
      if (partial.trim().startsWith('{')) jsonLines++;
      reader.line(partial);
    }
    const result: HarnessTestResult = {
      argv: built.argv,
      exit_code: code,
      signal,
      timed_out: timedOut,
      duration_ms: Date.now() - started,
      readout: reader.snapshot(),
      stream: { lines, json_lines: jsonLines, stderr_tail: stderr.split('\n').slice(-20).join('\n').trim() },
      mock: {
        api: mock.api,
        requests: server.requests.length,
        model_calls: server.main().length,
        models: [...new Set(server.main().flatMap((r) => (r.model ? [r.model] : [])))],
      },
      tool_ran: existsSync(join(repo, TEST_FILE)),
      problems: [],
      folder: i.keep ? folder : null,
    };
    result.problems = problemsOf(result, i.def);
    return result;
  } finally {
    await server.close();
    if (!i.keep) rmSync(folder, { recursive: true, force: true });
  }
}
