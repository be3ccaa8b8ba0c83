import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { expect } from 'vitest';
import { makeRepo } from './git.js';
import { serverFor } from './shared-home.js';
import { http, type JigProcess } from './server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const FAKES = join(root, 'test', 'fixtures', 'fake-agents');

/**
 * A script that runs a fake CLI with some knobs fixed, so two harnesses of one test behave
 * differently (one rate limited, the other fine).
 */
export function fakeWith(dir: string, name: string, cli: string, env: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, name);
  const sets = Object.entries(env)
    .map(([k, v]) => `${k}='${v.replaceAll("'", "'\\''")}'`)
    .join(' ');
  writeFileSync(p, `#!/bin/sh\nexport ${sets}\nexec '${join(FAKES, cli)}' "$@"\n`);
  chmodSync(p, 0o755);
  return p;
}

/** The seeded harnesses.yaml with each CLI's executable replaced (default: the fakes). */
export function harnessesYaml(executables: Partial<Record<string, string>> = {}): string {
  const seeded = readFileSync(join(root, 'defaults', 'config', 'harnesses.yaml'), 'utf8');
  const doc = parseDocument(seeded);
  for (const id of ['claude', 'codex', 'gemini', 'cursor', 'opencode', 'amp', 'antigravity']) {
    const exe = executables[id] ?? join(FAKES, id);
    doc.setIn(['harnesses', id, 'executable'], exe);
  }
  return doc.toString();
}

/** Sets keys of a connected repo's entry in repos.yaml (read at each launch, so no restart). */
export function setRepoKeys(home: string, repo: string, keys: Record<string, unknown>): void {
  const file = join(home, 'config', 'repos.yaml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  const list = doc.get('repos') as { items: { get(k: string): unknown; set(k: string, v: unknown): void }[] };
  const entry = list.items.find((e) => e.get('path') === repo);
  if (!entry) throw new Error(`repo ${repo} is not in repos.yaml`);
  for (const [k, v] of Object.entries(keys)) entry.set(k, doc.createNode(v));
  writeFileSync(file, doc.toString());
}

/** A home with the fake CLIs as harnesses, the given chains and policy, and a connected repo. */
export async function agentSetup(
  chains: Record<string, string>,
  opts: {
    home?: string;
    policy?: string;
    harnesses?: string;
    env?: Record<string, string>;
    /** The server's own environment (the repo's `env` above is what agents get). */
    serverEnv?: Record<string, string>;
    testCommand?: string;
    repoFiles?: Record<string, string>;
  } = {},
): Promise<{ jig: JigProcess; repo: string; home: string }> {
  // The file's shared server, reset for this test, unless the test has a home or a server
  // environment of its own.
  const { jig, home } = await serverFor(
    { chains, policy: opts.policy, harnesses: opts.harnesses ?? harnessesYaml() },
    { home: opts.home, env: opts.serverEnv },
  );
  const repo = makeRepo(opts.repoFiles);
  const r = await http(`${jig.url}/api/repos`, {
    method: 'POST',
    body: { path: repo, test_command: opts.testCommand ?? '', setup_command: '' },
  });
  expect(r.status, r.text).toBe(201);
  if (opts.env) setRepoKeys(home, repo, { env: opts.env });
  return { jig, repo, home };
}

export async function sessions(jig: JigProcess, id: string): Promise<any[]> {
  const r = await http(`${jig.url}/api/work-items/${id}/sessions`);
  expect(r.status).toBe(200);
  return r.json.sessions;
}

/** The JSON lines a fake CLI appended to a log file. */
export function jsonLines(file: string): any[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}
