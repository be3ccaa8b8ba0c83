import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import type { PolicyGetAnswer } from '../../../src/contract/policy-route.js';
import type { ProbeAnswer, ReposAnswer } from '../../../src/contract/repos.js';
import type { ChainListAnswer } from '../../../src/contract/templates.js';
import { plural } from '../words.js';
import { get, post, type Item } from '../api.js';
import { ProbeSummary } from '../repos/probe-summary.js';

type Repos = z.infer<typeof ReposAnswer>;

/** Step 1: a repository by path, probed, its commands decided, connected. */
function ConnectStep({ suggested, onDone }: { suggested: string; onDone: (path: string) => void }) {
  const client = useQueryClient();
  const [path, setPath] = useState(suggested);
  const [probe, setProbe] = useState<ProbeAnswer | null>(null);
  const [tests, setTests] = useState('');
  const [setup, setSetup] = useState('');
  const [error, setError] = useState<string | null>(null);
  const look = async () => {
    setError(null);
    try {
      const p = await post<ProbeAnswer>('/api/repos/probe', { path });
      setProbe(p);
      setTests(p.test_command?.value ?? '');
      setSetup(p.setup_command?.value ?? '');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const connect = async () => {
    if (!probe) return;
    setError(null);
    try {
      await post('/api/repos', { path: probe.path, test_command: tests, setup_command: setup });
      await client.invalidateQueries({ queryKey: ['repos'] });
      onDone(probe.path);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section aria-labelledby="step-connect">
      <h2 id="step-connect">1. Connect a repository</h2>
      <form
        className="wizard-row"
        onSubmit={(e) => {
          e.preventDefault();
          void look();
        }}
      >
        <label>
          Path of a git checkout on this machine
          <input
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/home/me/src/project"
            required
          />
        </label>
        <button type="submit">Look at it</button>
      </form>
      {probe && (
        <div className="probe">
          <ProbeSummary probe={probe} connectedNote="already connected" />
          <label>
            Test command (empty: the repository has no tests)
            <input value={tests} onChange={(e) => setTests(e.target.value)} />
          </label>
          <label>
            Setup command (empty: nothing to set up)
            <input value={setup} onChange={(e) => setSetup(e.target.value)} />
          </label>
          <button type="button" className="primary" onClick={() => void connect()}>
            Connect {probe.name}
          </button>
        </div>
      )}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}

/** Step 2: what will run and under which limits. */
function ChainStep() {
  const chains = useQuery({
    queryKey: ['chains'],
    queryFn: () => get<ChainListAnswer>('/api/templates/chains'),
  });
  const policy = useQuery({ queryKey: ['policy'], queryFn: () => get<PolicyGetAnswer>('/api/policy') });
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
    </section>
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
      const item = await post<Item>('/api/work-items', { title, repo, chain, start });
      await client.invalidateQueries({ queryKey: ['items'] });
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
  const [connected, setConnected] = useState<string | null>(null);
  return (
    <section className="page wizard" aria-label="Get started">
      <h1>Get started with Jig</h1>
      <p className="muted">
        Three steps to a first work item.{' '}
        <button type="button" className="link" onClick={onSkip}>
          Skip to the board
        </button>
      </p>
      <ConnectStep suggested={repos.suggested?.path ?? ''} onDone={setConnected} />
      {connected && (
        <>
          <ChainStep />
          <FirstItemStep repo={connected} />
        </>
      )}
    </section>
  );
}
