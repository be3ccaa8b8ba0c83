import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import type { ReposAnswer } from '../../../src/contract/repos.js';
import { plural } from '../words.js';
import { callRoute, routes } from '../api.js';
import { chainsQuery, keys, policyQuery, sandboxQuery } from '../queries.js';
import { CommandFields, PathForm } from '../repos/connect-parts.js';
import { ProbeSummary } from '../repos/probe-summary.js';
import { useRepoConnect } from '../repos/use-repo-connect.js';

type Repos = z.infer<typeof ReposAnswer>;

/** What step 1 connected: shown in its place once done, so the step reads as finished. */
interface Connected {
  path: string;
  name: string;
  tests: string;
}

/**
 * Step 1: a repository by path, probed, its commands decided, connected. Once connected the step
 * says so (✓, the name, the path, its test command) instead of offering the form again.
 */
function ConnectStep({
  suggested,
  connected,
  onDone,
}: {
  suggested: string;
  connected: Connected | null;
  onDone: (repo: Connected) => void;
}) {
  const c = useRepoConnect(suggested);
  const probe = c.probe;
  if (connected)
    return (
      <section aria-labelledby="step-connect">
        <h2 id="step-connect">1. Connect a repository</h2>
        <p className="wizard-done" role="status">
          <span aria-hidden>✓</span> Connected <strong>{connected.name}</strong> <code>{connected.path}</code>
          <span className="muted">
            {' '}
            ·{' '}
            {connected.tests ? (
              <>
                tests: <code>{connected.tests}</code>
              </>
            ) : (
              'no tests'
            )}
          </span>
        </p>
      </section>
    );
  return (
    <section aria-labelledby="step-connect">
      <h2 id="step-connect">1. Connect a repository</h2>
      <PathForm c={c} className="wizard-row" />
      {probe && (
        <div className="probe">
          <ProbeSummary probe={probe} connectedNote="already connected" />
          <CommandFields c={c} setupBox={false} />
          <button
            type="button"
            className="primary"
            onClick={() =>
              void c
                .connect()
                .then(
                  (repo) =>
                    repo && onDone({ path: repo.path, name: repo.name, tests: repo.test_command ?? '' }),
                )
            }
          >
            Connect {probe.name}
          </button>
        </div>
      )}
      {c.error && <p role="alert">{c.error}</p>}
    </section>
  );
}

/** Step 2: what will run and under which limits. */
function ChainStep() {
  const chains = useQuery(chainsQuery());
  const policy = useQuery(policyQuery());
  return (
    <section aria-labelledby="step-chain">
      <h2 id="step-chain">2. Chains and limits</h2>
      <p className="muted">
        An item runs through a chain: agent tasks, commands, and gates where you decide. These are the chains
        this Jig has; <code>manual</code> needs no agent CLI.
      </p>
      <ul>
        {(chains.data?.chains ?? [])
          .filter((c) => c.running)
          .map((c) => (
            <li key={c.id}>
              <strong>{c.id}</strong> · {plural(c.nodes, 'node')} · {plural(c.gates, 'gate')}
              {c.description ? ` — ${c.description}` : ''}
            </li>
          ))}
      </ul>
      {policy.data && (
        <p className="muted">
          Up to {policy.data.max_concurrent} items run at once; the rest wait in a queue. Dollar, token, time
          and attempt caps are in <code>policy.yaml</code>.
        </p>
      )}
      <SandboxStep />
    </section>
  );
}

/** Part of step 2: whether tasks run in a jail, and what this machine can jail them with. */
function SandboxStep() {
  const q = useQuery(sandboxQuery());
  const a = q.data;
  if (!a) return null;
  return (
    <p className="muted" data-testid="wizard-sandbox">
      {a.instance_default !== null && a.instance_default !== 'none'
        ? `Tasks run in a ${a.instance_default} sandbox (policy.yaml).`
        : a.best !== null
          ? `Tasks run with this server's reach: no sandbox is set. ${a.best} works here; set it in Settings › Policy › Sandbox.`
          : `Tasks run with this server's reach, and no sandbox works here (${a.kinds.map((k) => k.why ?? k.kind).join('; ')}).`}
    </p>
  );
}

/** Step 3: the first item, and how agents reach Jig. */
function FirstItemStep({ repo }: { repo: string }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [title, setTitle] = useState('');
  const [chain, setChain] = useState('manual');
  const [error, setError] = useState<string | null>(null);
  const create = async (start: boolean) => {
    setError(null);
    try {
      const item = await callRoute(routes.createItem, { body: { title, repo, chain, start } });
      if ('dry_run' in item) throw new Error('the server answered a dry run');
      // A new item: the lists are read again to take it in.
      await client.invalidateQueries({ queryKey: keys.lists });
      void navigate(`/work-items/${item.id}`);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section aria-labelledby="step-item">
      <h2 id="step-item">3. Your first work item</h2>
      <form
        className="wizard-row"
        onSubmit={(e) => {
          e.preventDefault();
          void create(false);
        }}
      >
        <label>
          Title
          <input
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            placeholder="Fix the typo in the README"
          />
        </label>
        <label>
          Chain
          <input value={chain} onChange={(e) => setChain(e.target.value)} />
        </label>
        <button type="submit">Create paused</button>
        <button type="button" className="primary" disabled={!title.trim()} onClick={() => void create(true)}>
          Create and start
        </button>
      </form>
      {error && <p role="alert">{error}</p>}
      <p className="muted">
        Coding agents reach Jig through its MCP server: run <code>jig admin init</code> once in a terminal to
        register it with the agent CLIs on this machine (Claude Code, Codex, Gemini, Cursor).
      </p>
    </section>
  );
}

/** Shown instead of the board while no repository is connected. */
export function Wizard({ repos, onSkip }: { repos: Repos; onSkip: () => void }) {
  const [connected, setConnected] = useState<Connected | null>(null);
  return (
    <section className="page wizard" aria-label="Get started">
      <h1>Get started with Jig</h1>
      <p className="muted">
        Three steps to a first work item.{' '}
        <button type="button" className="link" onClick={onSkip}>
          Skip to the board
        </button>
      </p>
      <ConnectStep suggested={repos.suggested?.path ?? ''} connected={connected} onDone={setConnected} />
      {connected && (
        <>
          <ChainStep />
          <FirstItemStep repo={connected.path} />
        </>
      )}
    </section>
  );
}
