import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionReadout } from '../../src/contract/harness/provider.js';
import { HarnessesFile } from '../../src/contract/config/harnesses.js';
import { estimateCost, sessionCost } from '../../src/core/harness/prices.js';
import { CONTRACT_TEXT } from '../../src/core/steering/contract-text.js';
import { buildAgentLaunch, type AgentLaunch } from '../../src/runtime/harness/agent-launch.js';
import { HarnessCatalog } from '../../src/runtime/harness/catalog.js';
import { LiveUsage } from '../../src/runtime/workers/live-usage.js';
import { endGroup, launchHere, readExitCode } from '../../src/runtime/workers/supervisor.js';
import { git, gitEnv, makeRepo } from '../helpers/git.js';
import { cleanupAll } from '../helpers/server.js';
import { cacheDir, cli, cliEnv, PINNED, type ScenarioCliId, type CliId } from './clis.js';
import { CLIS, binPath } from './install-clis.mjs';
import { removeHome } from './jig-env.js';
import { startMockModelServer, type MockModelServer, type Turn } from './mock-model-server.js';

/*
 * The real agent CLIs (pinned, installed on demand under .cache/agent-clis by install-clis.mjs)
 * launched exactly as Jig launches an agent task — argv and env from the provider definition, run
 * detached by the supervisor, log read by LiveUsage — against a mock model server on loopback.
 * A CLI that is not installed is skipped with the reason in the title.
 */

// Private homes live under .cache (Codex refuses a CODEX_HOME in the system temp dir).
const runRoot = join(cacheDir, 'runs');
mkdirSync(runRoot, { recursive: true });
const scratch: string[] = [];
afterAll(async () => {
  for (const d of scratch) await removeHome(d);
  await cleanupAll();
});

const catalog = new HarnessCatalog('/nonexistent-jig-config');
const MODELS = { claude: 'opus', codex: 'gpt-5-codex', gemini: 'gemini-2.5-pro' } as const;
const TIMEOUT_MS = 45_000;
const CONTRACT_HEAD = CONTRACT_TEXT.split('\n')[0]!;
const PROMPT = 'Add hello.txt and commit it.';
const COMMIT = "printf 'hello\\n' > hello.txt && git add hello.txt && git commit -q -m 'agent: add hello'";

interface Run {
  built: Extract<AgentLaunch, { ok: true }>;
  readout: SessionReadout;
  repo: string;
  exit: number | null;
  log: string;
  mock: MockModelServer;
  timedOut: boolean;
  /** From the deadline's end of the group to the CLI's exit; null when it exited by itself. */
  /** Whether a process of the CLI's group outlived the timeout's end of it. */
  groupLeft: boolean;
}

/** Whether any process of the group `pgid` leads is still there (signal 0 tests, sends nothing). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function harnessesFor(id: ScenarioCliId, bin: string, defaults?: Record<string, string>): HarnessesFile {
  return HarnessesFile.parse({
    harnesses: { [id]: { provider: id, executable: bin, ...(defaults ? { defaults } : {}) } },
    profiles: { strong: { providers: { [id]: { model: MODELS[id] } } } },
  });
}

async function runAgent(
  id: ScenarioCliId,
  bin: string,
  script: Turn[],
  opts: {
    allowedTools?: string[];
    defaults?: Record<string, string>;
    /** Ends the group this long after the CLI's first model call is in flight (not after launch:
     * a slow machine can take longer than any short deadline just to start the CLI). */
    stallMs?: number;
  } = {},
): Promise<Run> {
  const mock = await startMockModelServer(script);
  const home = mkdtempSync(join(runRoot, `${id}-`));
  scratch.push(home);
  const repo = makeRepo();
  const built = buildAgentLaunch({
    task: {
      id: 'author',
      kind: 'agent',
      path: 'demo.main.author',
      harness: id,
      profile: 'strong',
      prompt: PROMPT,
    },
    node: 'demo',
    harnesses: harnessesFor(id, bin, opts.defaults),
    providers: catalog.providers().providers,
    repo: { path: repo, steering: [] },
    steering: () => undefined,
    ...(opts.allowedTools ? { allowedTools: opts.allowedTools } : {}),
  });
  if (!built.ok) throw new Error(built.reason);
  const logPath = join(home, 'session.log');
  const exitPath = join(home, 'session.exit');
  const child = launchHere({
    argv: built.argv,
    cwd: repo,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      LANG: 'C.UTF-8',
      ...gitEnv,
      ...built.env,
      ...cliEnv(id, home, mock),
    },
    logPath,
    exitPath,
  });
  const live = new LiveUsage(logPath, built.provider, { now: Date.now });
  let timedOut = false;
  // Set from a timer: a holder, so the compiler does not take it for always null below.
  const ending: { done: Promise<void> | null } = { done: null };
  const end = (): void => {
    timedOut = true;
    ending.done = endGroup(child.pid, 2_000);
  };
  const timer = setTimeout(end, TIMEOUT_MS);
  const stall =
    opts.stallMs === undefined
      ? undefined
      : setInterval(() => {
          if (mock.main().length === 0) return;
          clearInterval(stall);
          setTimeout(end, opts.stallMs);
        }, 50);
  await child.exited;
  clearTimeout(timer);
  clearInterval(stall);
  // What the timeout's end left of the CLI's process group (its helpers included), once it is done.
  if (ending.done) await ending.done;
  const groupLeft = ending.done !== null && groupAlive(child.pid);
  await endGroup(child.pid, 2_000); // background helpers the CLI left behind
  await mock.close();
  const readout = live.finish();
  const run = {
    built,
    readout,
    repo,
    exit: readExitCode(exitPath),
    log: readFileSync(logPath, 'utf8'),
    mock,
    timedOut,
    groupLeft,
  };
  if (process.env.JIG_E2E_AGENTS_DEBUG)
    console.log(`[${id}] ${built.argv.slice(0, 3).join(' ')} …\n${explain(run)}`);
  return run;
}

/** All text in a JSON value, joined (to find where a CLI put the system prompt). */
function texts(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(texts).join('\n');
  if (v && typeof v === 'object') return Object.values(v).map(texts).join('\n');
  return '';
}

const explain = (r: Run): string =>
  `exit ${r.exit}${r.timedOut ? ' (timed out)' : ''}\n--- readout ---\n${JSON.stringify(r.readout)}\n--- log ---\n${r.log.slice(-4000)}\n--- requests ---\n${r.mock.requests
    .map((q) => `${q.method} ${q.path} ${q.status}${q.main ? ' main' : ''}`)
    .join(
      '\n',
    )}\n--- tools offered ---\n${r.mock.main()[0]?.tools.join(', ') ?? ''}\n--- last request tail ---\n${JSON.stringify(
    ((r.mock.main().at(-1)?.body as { input?: unknown[] } | undefined)?.input ?? []).slice(-3),
  ).slice(-2500)}`;

const prices = catalog.prices();

it('the installer and the tests pin the same CLI versions at the same paths', () => {
  expect(Object.fromEntries(CLIS.map((c) => [c.id, { pkg: c.pkg, version: c.version, bin: c.bin }]))).toEqual(
    PINNED,
  );
  for (const c of CLIS) {
    const found = cli(c.id as CliId);
    if (found.bin) expect(found.bin).toBe(binPath(c));
  }
});

const claude = cli('claude');
describe.skipIf(claude.skip !== undefined)(
  `real Claude Code ${claude.skip ? `— skipped: ${claude.skip}` : ''}`,
  () => {
    it('sees the appended system prompt and profile model, commits through its Bash tool, reports usage and cost', async () => {
      const r = await runAgent(
        'claude',
        claude.bin!,
        [
          { usage: { input: 1200, output: 300 } },
          { bash: COMMIT },
          { usage: { input: 1500, output: 40 } },
          { say: 'Committed hello.txt.' },
        ],
        { allowedTools: ['Bash'] },
      );
      expect(r.exit, explain(r)).toBe(0);
      expect(r.built.argv).toContain('--allowedTools');
      const main = r.mock.main();
      expect(main.length, explain(r)).toBe(2);
      const first = main[0]!.body as { system?: unknown; model?: string };
      // (a) Jig's contract in the system prompt (appended after Claude's own), the profile's model.
      expect(texts(first.system)).toContain(CONTRACT_HEAD);
      expect(texts(first.system)).toContain(r.built.context.trim().split('\n').at(-1));
      expect(first.model).toMatch(/opus/);
      expect(main[0]!.tools).toContain('Bash');
      // (b) the command really ran in the repo.
      expect(git(r.repo, 'log', '-1', '--format=%s')).toBe('agent: add hello');
      expect(readFileSync(join(r.repo, 'hello.txt'), 'utf8')).toBe('hello\n');
      // (c) the reader: session id, the mock's tokens, the CLI's own cost.
      expect(r.readout).toMatchObject({
        done: true,
        is_error: false,
        permission_denials: 0,
        final_text: 'Committed hello.txt.',
        tokens: { input: r.mock.reported.input, output: r.mock.reported.output },
      });
      expect(r.readout.session_id).toMatch(/^[0-9a-f-]{36}$/);
      const cost = sessionCost(prices, 'claude', r.readout, 'opus');
      expect(cost.source).toBe('reported');
      expect(cost.usd).toBeGreaterThan(0);
      // The packaged price table reproduces the CLI's own figure for the model it named.
      expect(r.readout.model).toBe('claude-opus-4-8');
      expect(estimateCost(prices, 'claude', r.readout.model!, r.readout.tokens)?.usd).toBeCloseTo(
        cost.usd!,
        9,
      );
    });

    it('ends a 401 with is_error (subtype success) and the reader reports it', async () => {
      const r = await runAgent('claude', claude.bin!, [{ status: 401 }], { allowedTools: ['Bash'] });
      expect(r.timedOut, explain(r)).toBe(false);
      expect(r.exit).toBe(1);
      const result = r.log
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { type?: string; subtype?: string; is_error?: boolean })
        .find((e) => e.type === 'result');
      expect(result).toMatchObject({ subtype: 'success', is_error: true });
      expect(r.readout.done).toBe(true);
      expect(r.readout.is_error).toBe(true);
      expect(r.readout.error_message).toEqual(expect.any(String));
      expect(r.mock.main().length).toBe(1); // CLAUDE_CODE_MAX_RETRIES=0: no retries
    });

    it('denies its Bash tool when the launch grants no tools: nothing runs, the denial is counted', async () => {
      const r = await runAgent('claude', claude.bin!, [
        { bash: COMMIT },
        { say: 'I was not allowed to run it.' },
      ]);
      expect(r.exit, explain(r)).toBe(0);
      expect(r.built.argv).not.toContain('--allowedTools');
      expect(git(r.repo, 'log', '-1', '--format=%s')).toBe('initial');
      expect(r.readout).toMatchObject({ done: true, is_error: false });
      expect(r.readout.permission_denials).toBeGreaterThanOrEqual(1);
    });

    it('ends a 429 as an error the reader marks as a rate limit', async () => {
      const r = await runAgent('claude', claude.bin!, [{ status: 429, reset_after_s: 120 }], {
        allowedTools: ['Bash'],
      });
      expect(r.timedOut, explain(r)).toBe(false);
      expect(r.exit, explain(r)).toBe(1);
      expect(r.readout).toMatchObject({ done: true, is_error: true, rate_limit: { hit: true } });
    });

    it('a model that never answers is ended by the launch timeout (bounded, whole process group)', async () => {
      const r = await runAgent('claude', claude.bin!, [{ slow_ms: 120_000 }, { say: 'too late' }], {
        allowedTools: ['Bash'],
        stallMs: 1_000,
      });
      expect(r.timedOut, explain(r)).toBe(true);
      // endGroup: SIGTERM to the group, SIGKILL 2 s later to what is left: nothing of it remains.
      expect(r.groupLeft, explain(r)).toBe(false);
      expect(r.exit).not.toBe(0);
      expect(r.readout.done).toBe(false);
      expect(r.readout.session_id).toEqual(expect.any(String));
    });
  },
);

const codex = cli('codex');
const hasBwrap = spawnSync('bwrap', ['--version']).error === undefined;
describe.skipIf(codex.skip !== undefined)(
  `real Codex ${codex.skip ? `— skipped: ${codex.skip}` : ''}`,
  () => {
    it('sees the developer instructions and profile model, commits through its shell tool, usage priced from the table', async () => {
      // The default sandbox (workspace-write) keeps .git read-only (next scenario): committing needs
      // danger-full-access.
      const r = await runAgent(
        'codex',
        codex.bin!,
        [
          { usage: { input: 1200, output: 300 } },
          { bash: COMMIT },
          { usage: { input: 1500, output: 40 } },
          { say: 'Committed hello.txt.' },
        ],
        { defaults: { permission_mode: 'danger-full-access' } },
      );
      expect(r.built.argv.join(' ')).toContain('sandbox_mode="danger-full-access"');
      expect(r.exit, explain(r)).toBe(0);
      const main = r.mock.main();
      expect(main.length, explain(r)).toBe(2);
      const first = main[0]!.body as { input?: { role?: string; content?: unknown }[]; model?: string };
      const developer = (first.input ?? [])
        .filter((m) => m.role === 'developer')
        .map((m) => texts(m.content));
      expect(developer.join('\n')).toContain(CONTRACT_HEAD);
      expect(first.model).toBe('gpt-5-codex');
      expect(git(r.repo, 'log', '-1', '--format=%s'), explain(r)).toBe('agent: add hello');
      expect(r.readout).toMatchObject({
        done: true,
        is_error: false,
        cost_usd_reported: null,
        final_text: 'Committed hello.txt.',
        tokens: { input: r.mock.reported.input, output: r.mock.reported.output },
      });
      expect(r.readout.session_id).toEqual(expect.any(String));
      const cost = sessionCost(prices, 'codex', r.readout, 'gpt-5-codex');
      expect(cost.source).toBe('estimated');
      expect(cost.usd).toBeGreaterThan(0);
    });

    it('under its default workspace-write sandbox cannot commit: .git is read-only to its shell tool', async () => {
      const r = await runAgent('codex', codex.bin!, [{ bash: COMMIT }, { say: 'Could not commit.' }]);
      expect(r.exit, explain(r)).toBe(0);
      expect(r.built.argv.join(' ')).toContain('sandbox_mode="workspace-write"');
      expect(git(r.repo, 'log', '-1', '--format=%s')).toBe('initial');
      const second = r.mock.main()[1]!.body as { input?: { type?: string; output?: unknown }[] };
      const output = (second.input ?? [])
        .filter((i) => i.type === 'function_call_output')
        .map((i) => texts(i.output));
      // With bubblewrap on the machine Codex runs its shell tool through bwrap, whose fresh /tmp
      // hides Codex's own helper when Codex is installed under /tmp (a checkout there): every
      // command then fails to start. Elsewhere the tool runs and .git is read-only to it.
      const underTmp = realpathSync(codex.bin!).startsWith(`${realpathSync(tmpdir())}/`);
      expect(output.join('\n')).toMatch(
        hasBwrap && underTmp
          ? /bwrap: execvp codex-linux-sandbox: No such file or directory/
          : /\.git\/index\.lock': Read-only file system/,
      );
      // The run itself ends as a success: only the tool output tells.
      expect(r.readout).toMatchObject({ done: true, is_error: false, final_text: 'Could not commit.' });
    });

    it('ends a 429 with turn.failed the reader marks as a rate limit', async () => {
      const r = await runAgent('codex', codex.bin!, [{ status: 429, reset_after_s: 1 }]);
      expect(r.timedOut, explain(r)).toBe(false);
      expect(r.exit, explain(r)).toBe(1);
      expect(r.readout, explain(r)).toMatchObject({ done: true, is_error: true, rate_limit: { hit: true } });
    });

    it('ends a 401 with turn.failed; the reader reports the error', async () => {
      const r = await runAgent('codex', codex.bin!, [{ status: 401 }]);
      expect(r.timedOut, explain(r)).toBe(false);
      expect(r.exit, explain(r)).toBe(1);
      expect(r.readout).toMatchObject({ done: true, is_error: true });
      expect(r.readout.error_message).toEqual(expect.any(String));
    });
  },
);

const gemini = cli('gemini');
describe.skipIf(gemini.skip !== undefined)(
  `real Gemini CLI ${gemini.skip ? `— skipped: ${gemini.skip}` : ''}`,
  () => {
    it('sees the context inline in the prompt and the profile model, commits through its shell tool, usage priced from the table', async () => {
      const r = await runAgent('gemini', gemini.bin!, [
        { usage: { input: 1200, output: 300 } },
        { bash: COMMIT },
        { usage: { input: 1500, output: 40 } },
        { say: 'Committed hello.txt.' },
      ]);
      expect(r.exit, explain(r)).toBe(0);
      const main = r.mock.main();
      expect(main.length, explain(r)).toBe(2);
      expect(main[0]!.model).toBe('gemini-2.5-pro');
      const first = main[0]!.body as { contents?: { role?: string; parts?: unknown }[] };
      const user = (first.contents ?? []).filter((c) => c.role === 'user').map((c) => texts(c.parts));
      expect(user.join('\n')).toContain(`${CONTRACT_HEAD}`);
      expect(user.join('\n')).toContain(`---\n\n${PROMPT}`);
      expect(git(r.repo, 'log', '-1', '--format=%s'), explain(r)).toBe('agent: add hello');
      expect(r.readout).toMatchObject({
        done: true,
        is_error: false,
        cost_usd_reported: null,
        tokens: { input: r.mock.reported.input, output: r.mock.reported.output },
      });
      expect(r.readout.session_id).toEqual(expect.any(String));
      const cost = sessionCost(prices, 'gemini', r.readout, 'gemini-2.5-pro');
      expect(cost.source).toBe('estimated');
      expect(cost.usd).toBeGreaterThan(0);
    });
    it('ends a 401 with result status error; the reader reports the error', async () => {
      const r = await runAgent('gemini', gemini.bin!, [{ status: 401 }]);
      expect(r.timedOut, explain(r)).toBe(false);
      expect(r.exit, explain(r)).not.toBe(0);
      expect(r.readout).toMatchObject({ done: true, is_error: true });
      expect(r.readout.error_message).toEqual(expect.any(String));
    });

    it('ends a 429 as an error the reader marks as a rate limit', async () => {
      const r = await runAgent('gemini', gemini.bin!, [{ status: 429, reset_after_s: 1 }]);
      expect(r.timedOut, explain(r)).toBe(false);
      expect(r.exit).not.toBe(0);
      expect(r.readout).toMatchObject({ done: true, is_error: true, rate_limit: { hit: true } });
      expect(r.readout.error_message).toMatch(/retry in 1s/);
    });

    it('429: the reset time comes from "retry in Ns", read against the clock', async () => {
      const before = Date.now();
      const r = await runAgent('gemini', gemini.bin!, [{ status: 429, reset_after_s: 30 }]);
      expect(r.timedOut, explain(r)).toBe(false);
      expect(r.readout.rate_limit.hit).toBe(true);
      const resets = Date.parse(r.readout.rate_limit.resets_at ?? '');
      expect(resets, explain(r)).toBeGreaterThanOrEqual(before + 30_000 - 1_000);
      expect(resets).toBeLessThanOrEqual(Date.now() + 30_000 + 1_000);
    });
  },
);
