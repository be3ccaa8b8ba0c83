import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import type { z } from 'zod';
import type { ChainTestBody } from '../../../../src/contract/routes/chain-test.js';
import { ApiError, callRoute, routes } from '../../api.js';
import { reposQuery } from '../../queries.js';
import { ChainTestReportView } from './chain-test-report.js';
import { chainFile, type Draft } from './draft-api.js';
import { chainParts } from './shape.js';
import { readScript, starterScript } from './starter-script.js';

/*
 * "Test before publishing" on the Review & publish screen: a chain test (docs/chain-tests.md) of the
 * draft, run by the server in a throwaway home of its own, each agent answered and each gate decided
 * by the script typed here; then the path the chain took. The script starts as one where every agent
 * is done and every gate approves, written from the chain the editor draws.
 */

type TestBody = z.input<typeof ChainTestBody>;

interface Refusal {
  detail: string;
  problems: { path: string; message: string; line?: number | null }[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** What a refused test says: the API's detail, and the problems of a chain that does not resolve. */
function refusalOf(e: unknown): Refusal {
  if (!(e instanceof ApiError)) return { detail: String(e), problems: [] };
  const problems = isRecord(e.body) && Array.isArray(e.body.problems) ? e.body.problems : [];
  return {
    detail: e.status ? `${e.message} (HTTP ${e.status})` : e.message,
    problems: problems.filter(
      (p): p is Refusal['problems'][number] =>
        isRecord(p) && typeof p.path === 'string' && typeof p.message === 'string',
    ),
  };
}

/** Seconds since `running` turned on, for a wait of tens of seconds. */
function useSeconds(running: boolean): number {
  const [n, setN] = useState(0);
  useEffect(() => {
    if (!running) return;
    setN(0);
    const t = setInterval(() => setN((s) => s + 1), 1000);
    return () => clearInterval(t);
  }, [running]);
  return n;
}

export function ChainTestPanel({ draft }: { draft: Draft }) {
  const id = draft.key;
  const ids = useId();
  const parts = useMemo(() => chainParts(draft.result, chainFile(id)), [draft.result, id]);
  const [text, setText] = useState(() => starterScript(parts));
  const [parseError, setParseError] = useState<string | null>(null);
  const repos = useQuery(reposQuery());
  const connected = repos.data?.repos ?? [];
  // The repository whose default this chain is, else the first: the server needs one named when
  // more than one is connected, and takes the only one by itself.
  const [picked, setPicked] = useState<string | null>(null);
  const repo = picked ?? (connected.find((r) => r.default_chain === id) ?? connected[0])?.path ?? null;
  const test = useMutation({
    mutationFn: (body: TestBody) => callRoute(routes.testChain, { params: { id }, body }),
  });
  const seconds = useSeconds(test.isPending);

  const run = () => {
    const read = readScript(text);
    if ('error' in read) {
      setParseError(read.error);
      return;
    }
    setParseError(null);
    test.mutate({
      ...(read.script as TestBody),
      draft: draft.draft,
      ...(connected.length > 1 && repo !== null ? { repo } : {}),
    });
  };
  const refused = test.error ? refusalOf(test.error) : null;

  return (
    <section className="ce-test" aria-labelledby={`${ids}-h`}>
      <h3 id={`${ids}-h`}>Test before publishing</h3>
      <p className="muted">
        Walks the {draft.draft ? 'draft' : 'published chain'} with Jig&apos;s real engine in a throwaway
        server and a clone of the repository, each agent task answered and each gate decided by this script
        instead of a model or a person. Nothing is spent; it can take tens of seconds.
      </p>
      <label className="ce-test-label" htmlFor={`${ids}-script`}>
        Script (YAML or JSON)
      </label>
      <textarea
        id={`${ids}-script`}
        className="ce-test-script"
        rows={Math.min(24, Math.max(8, text.split('\n').length + 1))}
        spellCheck={false}
        value={text}
        aria-invalid={parseError !== null}
        aria-describedby={parseError ? `${ids}-parse` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setParseError(null);
        }}
      />
      {parseError && (
        <p className="ce-problem" id={`${ids}-parse`} role="alert">
          Not sent: {parseError}
        </p>
      )}
      <div className="ce-actions ce-test-actions">
        {connected.length > 1 && (
          <label className="ce-inline">
            Repository
            <select value={repo ?? ''} onChange={(e) => setPicked(e.target.value)}>
              {connected.map((r) => (
                <option key={r.path} value={r.path}>
                  {r.name} ({r.path})
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="button" className="primary" disabled={test.isPending} onClick={run}>
          {test.isPending ? 'Running…' : 'Run test'}
        </button>
        <button
          type="button"
          className="link"
          disabled={test.isPending}
          onClick={() => {
            setText(starterScript(parts));
            setParseError(null);
          }}
        >
          Start over from the chain
        </button>
      </div>
      {test.isPending && (
        <p role="status" className="ce-test-running">
          Running the test of {id}: a server of its own walks the chain…{seconds > 0 ? ` ${seconds} s` : ''}
        </p>
      )}
      {refused && !test.isPending && (
        <div className="banner" role="alert">
          <p>Not run: {refused.detail}</p>
          {refused.problems.map((p, i) => (
            <p key={i}>
              <code>{p.path || '(chain)'}</code> {p.message}
              {p.line ? ` (line ${p.line})` : ''}
            </p>
          ))}
        </div>
      )}
      {test.data && !test.isPending && <ChainTestReportView report={test.data} />}
    </section>
  );
}
