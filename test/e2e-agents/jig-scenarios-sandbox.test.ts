import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sessions, setRepoKeys } from '../helpers/agents.js';
import { events, fileItem } from '../helpers/engine.js';
import { git, gitEnv } from '../helpers/git.js';
import { resultCmd } from './jig-env.js';
import {
  closeScenarios,
  COMMIT,
  explain,
  missing,
  ONE_AGENT,
  session,
  setup,
  TEST_TIMEOUT,
  settle,
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
        const done = await settle(jig, item.id, mock);
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

    it(
      'signed in by OAuth: its login is copied into the jail, and a login it renews there is written back',
      async () => {
        // The renewal a refresh would make, written by the agent's own shell inside the jail.
        const renewed = JSON.stringify({ claudeAiOauth: { ...oauth('sk-ant-oat01-renewed') } });
        const { jig, repo, home, mock, cliHome } = await setup(
          session(
            `printf '%s' '${renewed}' > "$HOME/.claude/.credentials.json" && ${COMMIT} && ${resultCmd({ status: 'done' })}`,
          ),
          { jailed: ONE_AGENT('claude') },
        );
        // Signed in as a subscriber is: a login file in the CLI's HOME, no API key anywhere.
        const login = join(cliHome, '.claude', '.credentials.json');
        mkdirSync(join(cliHome, '.claude'), { recursive: true });
        writeFileSync(login, JSON.stringify({ claudeAiOauth: oauth('sk-ant-oat01-first') }), { mode: 0o600 });
        setRepoKeys(home, repo, {
          env: {
            ...gitEnv,
            HOME: cliHome,
            ANTHROPIC_BASE_URL: mock.url,
            CLAUDE_CODE_MAX_RETRIES: '0',
            DISABLE_AUTOUPDATER: '1',
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
            DISABLE_TELEMETRY: '1',
          },
          sandbox: { kind: 'bubblewrap', network: { allow: [`127.0.0.1:${mock.port}`] } },
        });
        const item = await fileItem(jig, repo, 'jailed');
        const done = await settle(jig, item.id, mock);
        const why = await explain(jig, item.id, mock);
        expect(done.status, why).toBe('completed');
        // The CLI read its login in the jail and sent it as a subscriber's bearer token.
        expect(mock.main().length, why).toBeGreaterThanOrEqual(2);
        // (Claude Code may read the file again once it changed: a call after the renewal may carry it.)
        const sent = mock.main().map((q) => q.credentials.authorization);
        expect(sent[0], why).toBe('Bearer sk-ant-oat01-first');
        for (const header of sent)
          expect(['Bearer sk-ant-oat01-first', 'Bearer sk-ant-oat01-renewed'], why).toContain(header);
        // The login renewed inside went back to where the CLI keeps it outside.
        expect(JSON.parse(readFileSync(login, 'utf8'))).toEqual(JSON.parse(renewed));
      },
      TEST_TIMEOUT,
    );
  },
);

const codexSkip = [missing('codex'), noBwrap].filter(Boolean).join('; ');

describe.skipIf(codexSkip !== '')(
  `Codex in a bubblewrap sandbox${codexSkip ? ` — skipped: ${codexSkip}` : ''}`,
  () => {
    it(
      'signed in with `codex login`: its auth.json and config.toml are copied into the jail, a renewed login is written back',
      async () => {
        const renewed = JSON.stringify({ OPENAI_API_KEY: 'sk-renewed' });
        const { jig, repo, home, mock, cliHome } = await setup(
          session(
            `printf '%s' '${renewed}' > "$HOME/.codex/auth.json" && ${COMMIT} && ${resultCmd({ status: 'done' })}`,
          ),
          { jailed: ONE_AGENT('codex') },
        );
        // `codex login --with-api-key` keeps the key in auth.json; config.toml points at the model.
        const codexDir = join(cliHome, '.codex');
        mkdirSync(codexDir, { recursive: true });
        writeFileSync(join(codexDir, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: 'sk-first' }), {
          mode: 0o600,
        });
        writeFileSync(
          join(codexDir, 'config.toml'),
          // A model of the classic request shape (the mock reads its tools), at the mock.
          `model = "gpt-5"\nopenai_base_url = "${mock.url}/v1"\n`,
        );
        setRepoKeys(home, repo, {
          env: { ...gitEnv, HOME: cliHome },
          sandbox: { kind: 'bubblewrap', network: { allow: [`127.0.0.1:${mock.port}`] } },
        });
        const item = await fileItem(jig, repo, 'jailed');
        const done = await settle(jig, item.id, mock);
        const why = await explain(jig, item.id, mock);
        expect(done.status, why).toBe('completed');
        const sent = mock.main().map((q) => q.credentials.authorization);
        expect(sent.length, why).toBeGreaterThanOrEqual(2);
        expect(sent[0], why).toBe('Bearer sk-first');
        for (const header of sent) expect(['Bearer sk-first', 'Bearer sk-renewed'], why).toContain(header);
        expect(JSON.parse(readFileSync(join(codexDir, 'auth.json'), 'utf8'))).toEqual({
          OPENAI_API_KEY: 'sk-renewed',
        });
      },
      TEST_TIMEOUT,
    );
  },
);

/** An OAuth login as Claude Code keeps it (`claudeAiOauth` in `.credentials.json`). */
function oauth(token: string): Record<string, unknown> {
  return {
    accessToken: token,
    refreshToken: 'sk-ant-ort01-refresh',
    expiresAt: Date.now() + 3_600_000,
    scopes: ['user:inference', 'user:profile'],
    subscriptionType: 'max',
  };
}
