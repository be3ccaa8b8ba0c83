import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProbeAnswer, RepoView } from '../../../src/contract/repos.js';
import { callRoute, routes } from '../api.js';
import { reposQuery } from '../queries.js';

/*
 * Connecting a repository, as the first-run wizard and Templates › Repos both do it: the path is
 * probed first, so the person sees the test and setup commands Jig proposes and why, edits them,
 * then connects. A test command decided ("" = no tests) lets the repository be enabled at once.
 */

export function useRepoConnect(initial: string) {
  const client = useQueryClient();
  const [path, setPathText] = useState(initial);
  const [probe, setProbe] = useState<ProbeAnswer | null>(null);
  const [tests, setTests] = useState('');
  const [setup, setSetup] = useState('');
  const [noSetup, setNoSetup] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fail = (e: unknown) => setError(e instanceof Error ? e.message : String(e));

  /** A path typed anew: the probe shown was of the old one. */
  const setPath = (p: string) => {
    setPathText(p);
    setProbe(null);
  };
  const look = async () => {
    setError(null);
    try {
      const p = await callRoute(routes.probeRepo, { body: { path } });
      setProbe(p);
      setTests(p.test_command?.value ?? '');
      setSetup(p.setup_command?.value ?? '');
      setNoSetup(p.setup_command === null);
    } catch (e) {
      fail(e);
    }
  };
  /** Connects the probed repository with the commands as edited; null when refused (the error says why). */
  const connect = async (): Promise<RepoView | null> => {
    if (!probe) return null;
    setError(null);
    try {
      const repo = await callRoute(routes.connectRepo, {
        body: { path: probe.path, test_command: tests, setup_command: noSetup ? '' : setup },
      });
      await client.invalidateQueries({ queryKey: reposQuery().queryKey });
      return repo;
    } catch (e) {
      fail(e);
      return null;
    }
  };
  return {
    path,
    setPath,
    probe,
    tests,
    setTests,
    setup,
    setSetup,
    noSetup,
    setNoSetup,
    error,
    look,
    connect,
  };
}

export type RepoConnect = ReturnType<typeof useRepoConnect>;
