import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { sessions, setRepoKeys } from '../helpers/agents.js';
import { events, fileItem, until } from '../helpers/engine.js';
import { git, gitEnv } from '../helpers/git.js';
import { resultCmd } from './jig-env.js';
import {
  closeScenarios,
  COMMIT,
  ended,
  explain,
  missing,
  ONE_AGENT,
  session,
  setup,
  TEST_TIMEOUT,
  TRIES,
} from './jig-scenarios-setup.js';

// Issue 45: the real Claude Code in a bubblewrap jail (docs/sandbox.md). The jail has no network
// but the session's egress proxy; the mock model is reached through it, and the API key the CLI
// holds is a placeholder the proxy swaps for the real one on the way to the mock's address.

afterAll(closeScenarios);

const bwrap = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', 'true'], { encoding: 'utf8' });
const noBwrap =
  bwrap.error !== undefined
    ? 'bwrap is not installed (apt-get install bubblewrap)'
    : bwrap.status !== 0
      ? `bwrap cannot start here: ${bwrap.stderr.trim()}`
      : '';
const skip = [missing('claude'), noBwrap].filter(Boolean).join('; ');

const SECRET = 'sk-ant-real-key-the-cli-never-sees';

describe.skipIf(skip !== '')(
  `Claude Code in a bubblewrap sandbox${skip ? ` — skipped: ${skip}` : ''}`,
  () => {
    it(
      'reaches the mock only through the proxy, which adds the key; the jail holds a placeholder',
      async () => {
        const { jig, repo, home, mock } = await setup(
          session(`env > env.txt && git add env.txt && ${COMMIT} && ${resultCmd({ status: 'done' })}`),
          { jailed: ONE_AGENT('claude') },
        );
        // The CLI's state lives in the jail's private HOME: no CLAUDE_CONFIG_DIR outside it.
        setRepoKeys(home, repo, {
          env: {
            ...gitEnv,
            ANTHROPIC_BASE_URL: mock.url,
            ANTHROPIC_API_KEY: SECRET,
            CLAUDE_CODE_MAX_RETRIES: '0',
            DISABLE_AUTOUPDATER: '1',
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
            DISABLE_TELEMETRY: '1',
          },
          sandbox: {
            kind: 'bubblewrap',
            network: { allow: [] },
            credentials: [
              { env: 'ANTHROPIC_API_KEY', hosts: [`127.0.0.1:${mock.port}`], header: 'x-api-key' },
            ],
          },
        });
        const item = await fileItem(jig, repo, 'jailed');
        const done = await until(jig, item.id, ended, TRIES);
        const why = await explain(jig, item.id, mock);
        expect(done.status, why).toBe('completed');
        // Every model call carried the real key, set by the proxy.
        expect(mock.main().length, why).toBeGreaterThanOrEqual(2);
        expect(new Set(mock.requests.map((q) => q.credentials['x-api-key']))).toEqual(new Set([SECRET]));
        // What the agent's shell saw: a placeholder, the proxy, the jail; never the key.
        const dump = git(repo, 'show', `${done.branch}:env.txt`);
        expect(dump).not.toContain(SECRET);
        expect(dump).toContain('ANTHROPIC_API_KEY=jig-sandbox-placeholder-ANTHROPIC_API_KEY');
        expect(dump).toContain('HTTPS_PROXY=http://127.0.0.1:3128');
        expect(dump).toContain('JIG_SANDBOX=bubblewrap');
        expect(dump).toMatch(new RegExp(`^HOME=${home}/run/sandbox/homes/${item.id}$`, 'm'));
        expect(git(repo, 'log', '-1', '--format=%s', done.branch)).toBe('agent: add hello');
        const [s] = await sessions(jig, item.id);
        expect(s.status).toBe('done');
        // Claude's own hosts (its definition's network.requires) are allowed for its launches.
        const started = (await events(jig, item.id)).find((e) => e.type === 'worker_session_started');
        expect(started?.payload.sandbox).toEqual({
          kind: 'bubblewrap',
          network: `allow api.anthropic.com, console.anthropic.com, 127.0.0.1:${mock.port}`,
        });
      },
      TEST_TIMEOUT,
    );
  },
);
