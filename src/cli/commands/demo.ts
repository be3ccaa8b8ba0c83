import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JigClient } from '../../client/http.js';
import { approveGate } from '../../client/item-acts.js';
import { createItem, getItem, listItems, moveItem, runMove } from '../../client/items.js';
import { connectRepo } from '../../client/repos.js';
import type { WorkItem } from '../../contract/items.js';

/*
 * `jig serve --demo`: a throwaway home with a sample repository and items in every state, so a
 * visitor sees a lived-in board before connecting their own code. Its chains run commands only (no
 * agent, no network), so the demo works on any machine Jig runs on; what it files goes through the
 * API like any client's, so the board shows real items, events and worktrees.
 */

/** The chains the demo's items run: one that completes, one that fails, one that runs a long time. */
const CHAINS: Record<string, string> = {
  demo: `description: The demo's chain, commands only and no agent.
nodes:
  - id: plan
    kind: exec
    tasks:
      - id: outline
        kind: subprocess
        run: printf '# Plan\\n\\n1. Say hello in French.\\n' > PLAN.md
  - id: review
    kind: gate
    message: Read PLAN.md in the worktree, then approve to build.
  - id: build
    kind: exec
    tasks:
      - id: change
        kind: subprocess
        run: printf 'Bonjour\\n' > greeting.txt && git add greeting.txt PLAN.md && git commit -q -m "Say hello in French"
`,
  'demo-fails': `description: The demo's failing chain, whose build step exits 1.
nodes:
  - id: build
    kind: exec
    tasks:
      - id: compile
        kind: subprocess
        run: "echo 'greeting.c:3 error, expected a semicolon' >&2; exit 1"
`,
  'demo-slow': `description: The demo's long chain, whose step runs for an hour.
nodes:
  - id: build
    kind: exec
    tasks:
      - id: long
        kind: subprocess
        run: sleep 3600
`,
};

const git = (cwd: string, ...args: string[]): void => {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
};

/** Makes the throwaway home (its chains) and the sample repository; answers the home. */
export function prepareDemoHome(): { home: string; repo: string } {
  const home = mkdtempSync(join(tmpdir(), 'jig-demo-'));
  const chains = join(home, 'config', 'chains');
  mkdirSync(chains, { recursive: true });
  for (const [id, text] of Object.entries(CHAINS)) writeFileSync(join(chains, `${id}.yaml`), text);
  const repo = join(home, 'sample-repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'README.md'), '# Greeter\n\nA sample repository for the Jig demo.\n');
  writeFileSync(join(repo, 'greeting.txt'), 'Hello\n');
  git(repo, 'init', '-q', '-b', 'main');
  // An identity of its own: a machine without a git identity still makes the demo's commits.
  git(repo, 'config', 'user.name', 'Jig demo');
  git(repo, 'config', 'user.email', 'demo@jig.invalid');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'A greeter');
  return { home, repo };
}

/** Polls an item until `ok` holds; the demo's steps take well under a second each. */
async function until(c: JigClient, id: string, ok: (i: WorkItem) => boolean): Promise<WorkItem> {
  for (let i = 0; i < 600; i++) {
    const item = await getItem(c, id);
    if (ok(item)) return item;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`demo item ${id} did not get where the demo expected`);
}

const atGate = (i: WorkItem) => i.gate_request !== null;
const ended = (i: WorkItem) => i.status !== 'running' && i.status !== 'queued';

/** Files the demo's items through the API and walks each to its state; answers one line per item. */
export async function seedDemo(url: string, repo: string): Promise<string[]> {
  const c = new JigClient({ url, token: null, workItem: null });
  await connectRepo(c, { path: repo, test_command: '', setup_command: '', default_chain: 'demo' });
  const file = (title: string, chain: string, more: { start?: boolean; after?: string[] } = {}) =>
    createItem(c, { title, repo, chain, auto_gate: false, ...more });
  const lines: string[] = [];
  const say = (i: WorkItem, what: string) => lines.push(`${i.id}  ${what.padEnd(22)} ${i.title}`);

  const done = await file('Say hello in French', 'demo', { start: true });
  await approveGate(c, done.id, 'review', {
    request: (await until(c, done.id, atGate)).gate_request ?? undefined,
  });
  say(await until(c, done.id, (i) => i.status === 'completed'), 'completed');

  const old = await file('Say hello in Spanish', 'demo', { start: true });
  await approveGate(c, old.id, 'review', {
    request: (await until(c, old.id, atGate)).gate_request ?? undefined,
  });
  await until(c, old.id, (i) => i.status === 'completed');
  say(await moveItem(c, old.id, 'archive'), 'archived');

  const gate = await file('Say hello in German', 'demo', { start: true });
  say(await until(c, gate.id, atGate), 'waits at its gate');

  const failed = await file('Port the greeter to C', 'demo-fails', { start: true });
  say(await until(c, failed.id, ended), 'stopped: build failed');

  const running = await file('Translate every greeting', 'demo-slow', { start: true });
  say(await until(c, running.id, (i) => i.status === 'running'), 'running');

  const paused = await file('Say hello in Italian', 'demo');
  say(paused, 'paused (not started)');
  const blocked = await file('Say hello in Latin', 'demo', { after: [paused.id] });
  say(await runMove(c, blocked.id, 'resume', {}), 'blocked (comes after)');

  const cancelled = await file('Say hello in Klingon', 'demo');
  say(await moveItem(c, cancelled.id, 'cancel', 'Not a real language for this greeter.'), 'cancelled');
  return lines;
}

/** Pauses the demo's running items (their commands end) before the server stops. */
export async function pauseDemo(url: string): Promise<void> {
  const c = new JigClient({ url, token: null, workItem: null });
  const { items } = await listItems(c, { status: 'running', limit: 100 });
  await Promise.all(items.map((i) => runMove(c, i.id, 'pause', {})));
}
