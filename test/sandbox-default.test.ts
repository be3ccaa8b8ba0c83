import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { agentSetup, sessions } from './helpers/agents.js';
import { events, fileItem, oneCommand, until } from './helpers/engine.js';
import { cleanupAll, http, startJig, tempHome } from './helpers/server.js';

// Issue 45, "default on": a new home's policy.yaml jails every task where bubblewrap works, and
// says how to turn it on where it does not; a home that exists is never changed. The suite's
// servers run with JIG_SANDBOX_DEFAULT=none (vitest.config.ts); these start with it unset. Both
// branches are asserted, whichever this machine takes.

afterAll(cleanupAll);

const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', 'true'], {
  encoding: 'utf8',
});
const bwrapWorks = probe.error === undefined && probe.status === 0;
const ended = (i: any): boolean => i.status !== 'running' && i.status !== 'queued';
const policyOf = (home: string): string => readFileSync(join(home, 'config', 'policy.yaml'), 'utf8');

describe('a new home seeds its sandbox', () => {
  it('with the best kind that works here, and its tasks run in it', async () => {
    const home = tempHome();
    const { jig, repo } = await agentSetup(
      { probe: oneCommand('echo "kind=$JIG_SANDBOX home=$HOME" > "$JIG_RESULT_PATH.txt"') },
      { home, serverEnv: { JIG_SANDBOX_DEFAULT: '' } },
    );
    const policy = parse(policyOf(home));
    const answer = await http(`${jig.url}/api/sandbox`);
    expect(answer.status, answer.text).toBe(200);
    const item = await fileItem(jig, repo, 'probe');
    const done = await until(jig, item.id, ended);
    expect(done.status).toBe('completed');
    const started = (await events(jig, item.id)).find((e) => e.type === 'worker_session_started');
    if (bwrapWorks) {
      expect(policy.sandbox).toEqual({
        kind: 'bubblewrap',
        network: {
          allow: [],
          install: {
            allow: [
              'registry.npmjs.org',
              'registry.yarnpkg.com',
              'pypi.org',
              'files.pythonhosted.org',
              'proxy.golang.org',
              'sum.golang.org',
              'index.crates.io',
              'static.crates.io',
              'rubygems.org',
              'repo.maven.apache.org',
            ],
          },
        },
        credentials: [
          { env: 'ANTHROPIC_API_KEY', hosts: ['api.anthropic.com'], header: 'x-api-key' },
          {
            env: 'OPENAI_API_KEY',
            hosts: ['api.openai.com'],
            header: 'authorization',
            format: 'Bearer {value}',
          },
          { env: 'GEMINI_API_KEY', hosts: ['generativelanguage.googleapis.com'], header: 'x-goog-api-key' },
        ],
      });
      expect(answer.json).toMatchObject({ best: 'bubblewrap', instance_default: 'bubblewrap' });
      expect(started?.payload.sandbox).toEqual({ kind: 'bubblewrap', network: 'none' });
      const [s] = await sessions(jig, item.id);
      expect(s.status).toBe('done');
    } else {
      // Written commented out, with the reason, so turning it on is one edit.
      expect(policy.sandbox).toBeUndefined();
      expect(policyOf(home)).toMatch(/^# Not on: bwrap .+\n# sandbox:\n#   kind: bubblewrap\n/m);
      expect(answer.json).toMatchObject({ instance_default: null });
      expect(started?.payload.sandbox).toBeUndefined();
    }
    // The file the seeding wrote passes the server's own checks: nothing refused at load.
    const health = await http(`${jig.url}/api/health`);
    expect(health.json.status, health.text).toBe('ok');
  });

  it('JIG_SANDBOX_DEFAULT=none seeds it commented out; a later start changes nothing', async () => {
    const home = tempHome();
    const first = await startJig({ home, env: { JIG_SANDBOX_DEFAULT: 'none' } });
    const seeded = policyOf(home);
    expect(seeded).toContain(
      '# Not on: JIG_SANDBOX_DEFAULT=none was set when this home was made. To turn it on, remove the leading # of the lines below.\n# sandbox:\n#   kind: bubblewrap\n',
    );
    expect(parse(seeded).sandbox).toBeUndefined();
    expect((await http(`${first.url}/api/sandbox`)).json.instance_default).toBeNull();
    await first.stop();
    // Started again where bubblewrap may work: the home exists, so its policy.yaml stays as it is.
    const again = await startJig({ home, env: { JIG_SANDBOX_DEFAULT: '' } });
    expect(policyOf(home)).toBe(seeded);
    await again.stop();
  });

  it("a policy.yaml of the user's, there before the first start, is never changed", async () => {
    const home = tempHome();
    mkdirSync(join(home, 'config'), { recursive: true });
    const mine = 'max_concurrent: 2\n';
    writeFileSync(join(home, 'config', 'policy.yaml'), mine);
    const jig = await startJig({ home, env: { JIG_SANDBOX_DEFAULT: '' } });
    expect(policyOf(home)).toBe(mine);
    expect((await http(`${jig.url}/api/sandbox`)).json.instance_default).toBeNull();
  });
});
