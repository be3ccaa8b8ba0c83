import { expect } from 'vitest';
import { eventually } from './eventually.js';
import { makeRepo } from './git.js';
import { serverFor } from './shared-home.js';
import { http, type JigProcess } from './server.js';

/** A home whose config holds the given chains (id -> YAML), and a connected repo. */
export async function engineSetup(
  chains: Record<string, string>,
  opts: {
    home?: string;
    policy?: string;
    repoFiles?: Record<string, string>;
    setup?: string;
    testCommand?: string;
  } = {},
): Promise<{ jig: JigProcess; repo: string; home: string }> {
  // The file's shared server, reset for this test, unless the test has a home of its own.
  const { jig, home } = await serverFor({ chains, policy: opts.policy }, { home: opts.home });
  const repo = makeRepo(opts.repoFiles);
  const r = await http(`${jig.url}/api/repos`, {
    method: 'POST',
    body: { path: repo, test_command: opts.testCommand ?? '', setup_command: opts.setup ?? '' },
  });
  expect(r.status).toBe(201);
  return { jig, repo, home };
}

/** What the helpers below need of a server: a real `jig serve` or an in-process one. */
export type Served = Pick<JigProcess, 'url'>;

export async function fileItem(jig: Served, repo: string, chain: string, start = true): Promise<any> {
  const r = await http(`${jig.url}/api/work-items`, {
    method: 'POST',
    body: { title: `Run ${chain}`, repo, chain, start },
  });
  expect(r.status, r.text).toBe(201);
  return r.json;
}

/** Polls the item until `ok` holds (bounded by count, not asserted on time). */
export const until = (jig: Served, id: string, ok: (item: any) => boolean, tries = 300): Promise<any> =>
  eventually(
    async () => {
      const item = (await http(`${jig.url}/api/work-items/${id}`)).json;
      if (!ok(item)) throw new Error(`the item is ${JSON.stringify(item)}`);
      return item;
    },
    { what: `item ${id} to reach the state`, tries },
  );

/**
 * `until` for many items, one after another: the first wait takes as long as the slowest item would,
 * and the rest mostly answer at their first look. Fifty waits polled side by side asked the server
 * 500 times a second, which cost more CPU than the items' own runs (docs/testing.md).
 */
export async function untilEach(
  jig: Served,
  ids: string[],
  ok: (item: any) => boolean,
  tries = 300,
): Promise<any[]> {
  const reached: any[] = [];
  for (const id of ids) reached.push(await until(jig, id, ok, tries));
  return reached;
}

export async function events(jig: Served, id: string): Promise<any[]> {
  return (await http(`${jig.url}/api/work-items/${id}/events?limit=1000`)).json.events;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const post = (jig: Served, path: string, body?: unknown) =>
  http(`${jig.url}${path}`, { method: 'POST', body });

/** A chain of one exec node whose one task (`only.main.t`) runs `run` with sh. */
export const oneCommand = (run: string): string => `
nodes:
  - id: only
    kind: exec
    tasks:
      - id: t
        kind: subprocess
        run: ${JSON.stringify(run)}
`;
