import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { CONTRACT_TEXT } from '../src/core/steering/contract-text.js';
import {
  addCollection,
  frozenChain,
  HELD_CHAIN,
  hexOf,
  installAddon,
  makeCollection,
  releaseAddon,
  updateAddon,
  versionFolders,
  writeAddon,
} from './helpers/addons.js';
import { agentSetup, harnessesYaml, jsonLines, sessions, setRepoKeys } from './helpers/agents.js';
import { fileItem, post, until } from './helpers/engine.js';
import { cleanupAll, http } from './helpers/server.js';

afterAll(cleanupAll);

const stopped = (i: any) => i.status !== 'running' && i.status !== 'queued';
const atGate = (gate: string) => (i: any) => stopped(i) && i.current_node === gate;

/** The fakes as harnesses, claude defaulting to haiku: a task on `sonnet` got it from its profile. */
function haikuByDefault(): string {
  const doc = parseDocument(harnessesYaml());
  doc.setIn(['harnesses', 'claude', 'defaults', 'model'], 'haiku');
  return doc.toString();
}

/** The 1-based line of a file holding `text`. */
const lineOf = (file: string, text: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text)) + 1;

/** What the fake claude was given: the system prompt Jig composes (contract, skill, steering). */
const systemPrompt = (skill: string, steering: string) =>
  `${CONTRACT_TEXT.trimEnd()}\n\n${skill}\n\n${steering}`;

describe('add-on chains through the engine', () => {
  it('an item on `release:ship` runs the add-on task with its prompt, skill, steering and profile, and waits at its gate', async () => {
    const logs = mkdtempSync(join(tmpdir(), 'jig-addon-'));
    const prompts = join(logs, 'prompts.jsonl');
    const { jig, repo, home } = await agentSetup(
      {},
      {
        harnesses: haikuByDefault(),
        env: {
          FAKE_AGENT_MODE: 'done',
          FAKE_AGENT_PROMPT_LOG: prompts,
          FAKE_AGENT_ARGV_LOG: join(logs, 'argv.jsonl'),
        },
      },
    );
    await addCollection(jig, makeCollection('acme', { release: releaseAddon() }));
    const { installed } = await installAddon(jig, 'release', 'acme');

    const item = await fileItem(jig, repo, 'release:ship');
    const at = await until(jig, item.id, stopped);
    expect(at).toMatchObject({ status: 'stopped', current_node: 'approve', chain: 'release:ship' });
    expect(at.stop).toMatchObject({ kind: 'gate' });

    const lines = jsonLines(prompts);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({
      prompt: `Work item ${item.id}: Run release:ship\n\nYour task: Write the release notes for this change.`,
      system_prompt: systemPrompt(
        '# Release notes\nList user-visible changes, newest first.',
        'Keep it short and plain.',
      ),
      model: 'sonnet',
      resume: null,
    });
    const [s] = await sessions(jig, item.id);
    expect(s).toMatchObject({
      task_path: 'notes.main.write',
      status: 'done',
      harness: 'claude',
      model: 'claude-sonnet-4-5',
    });
    // The profile's effort came with its model.
    const [argv] = jsonLines(join(logs, 'argv.jsonl'));
    expect(argv.slice(argv.indexOf('--model'), argv.indexOf('--model') + 2)).toEqual(['--model', 'sonnet']);
    expect(argv.slice(argv.indexOf('--effort'), argv.indexOf('--effort') + 2)).toEqual(['--effort', 'high']);

    const chain = frozenChain(home, item.id);
    expect(chain.addons).toEqual({ release: installed.digest });
    expect(chain.nodes.map((n: any) => n.id)).toEqual(['notes', 'approve']);
    const route = await http(`${jig.url}/api/work-items/${item.id}/chain`);
    expect(route.status).toBe(200);
    expect(route.json.source).toBe('item');
  });

  it('a running item keeps the version it started on; a new item gets the update; the old version is kept until no open item pins it', async () => {
    const logs = mkdtempSync(join(tmpdir(), 'jig-addon-'));
    const prompts = join(logs, 'prompts.jsonl');
    const { jig, repo, home } = await agentSetup(
      {},
      { harnesses: haikuByDefault(), env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_PROMPT_LOG: prompts } },
    );
    const held = { 'chains/held.yaml': HELD_CHAIN };
    const coll = makeCollection('acme', { release: releaseAddon({ extra: held }) });
    await addCollection(jig, coll);
    const v1 = (await installAddon(jig, 'release', 'acme')).installed.digest;

    // The first item freezes its chain on 1.0.0 and waits at the gate in front of the agent.
    const first = await fileItem(jig, repo, 'release:held');
    await until(jig, first.id, atGate('hold'));
    expect(frozenChain(home, first.id).addons).toEqual({ release: v1 });

    writeAddon(
      coll,
      'release',
      releaseAddon({
        version: '1.1.0',
        prompt: 'Write the notes for 1.1.0.',
        skill: '# Notes, 1.1\nGroup the changes by area.\n',
        tone: 'Be thorough.',
        model: 'opus',
        extra: held,
      }),
    );
    const { review, updated } = await updateAddon(jig, 'release');
    expect(review).toMatchObject({
      action: 'update',
      from: { version: '1.0.0', digest: v1 },
      to: { version: '1.1.0' },
      reach: {
        added: ['model opus on claude in profile release:careful'],
        removed: ['model sonnet on claude in profile release:careful'],
      },
      unchanged: 0,
      problems: [],
    });
    expect(review.content.map((c: any) => `${c.change} ${c.kind} ${c.where}`)).toEqual([
      'changed prompt library task release:notes_writer',
      'changed steering steering release:tone',
      'changed skill skill release:notes',
    ]);
    expect(updated).toMatchObject({ namespace: 'release', version: '1.1.0', state: 'ok' });
    const v2 = updated.digest;
    expect(v2).toBe(review.to.digest);
    expect(versionFolders(home, 'release')).toEqual([hexOf(v1), hexOf(v2)].sort());

    // The first item goes on: its agent reads 1.0.0's prompt and skill.
    expect((await post(jig, `/api/work-items/${first.id}/gates/hold/approve`)).status).toBe(200);
    await until(jig, first.id, atGate('approve'));
    // A new item starts on 1.1.0.
    const second = await fileItem(jig, repo, 'release:held');
    await until(jig, second.id, atGate('hold'));
    expect(frozenChain(home, second.id).addons).toEqual({ release: v2 });
    expect((await post(jig, `/api/work-items/${second.id}/gates/hold/approve`)).status).toBe(200);
    await until(jig, second.id, atGate('approve'));

    const seen = jsonLines(prompts).map((l) => [l.prompt, l.system_prompt, l.model]);
    expect(seen).toEqual([
      [
        `Work item ${first.id}: Run release:held\n\nYour task: Write the release notes for this change.`,
        systemPrompt('# Release notes\nList user-visible changes, newest first.', 'Keep it short and plain.'),
        'sonnet',
      ],
      [
        `Work item ${second.id}: Run release:held\n\nYour task: Write the notes for 1.1.0.`,
        systemPrompt('# Notes, 1.1\nGroup the changes by area.', 'Be thorough.'),
        'opus',
      ],
    ]);
    expect(versionFolders(home, 'release')).toEqual([hexOf(v1), hexOf(v2)].sort());

    // Once the first item has ended, the next change of the add-on sweeps 1.0.0 away; 1.1.0 stays
    // while the second item is open.
    expect((await post(jig, `/api/work-items/${first.id}/cancel`)).status).toBe(200);
    expect(versionFolders(home, 'release')).toEqual([hexOf(v1), hexOf(v2)].sort());
    writeAddon(
      coll,
      'release',
      releaseAddon({ version: '1.2.0', prompt: 'Write the notes for 1.2.0.', extra: held }),
    );
    const v3 = (await updateAddon(jig, 'release')).updated.digest;
    expect(versionFolders(home, 'release')).toEqual([hexOf(v2), hexOf(v3)].sort());

    // Uninstalled with no item open: nothing of it is left.
    expect((await post(jig, `/api/work-items/${second.id}/cancel`)).status).toBe(200);
    const gone = await http(`${jig.url}/api/addons/release`, { method: 'DELETE' });
    expect(gone.status, gone.text).toBe(204);
    expect(existsSync(join(home, 'addons', 'release'))).toBe(false);
  });

  it('an instance chain that extends an add-on node and uses its skill runs; it keeps the add-on from being disabled until it is gone', async () => {
    const logs = mkdtempSync(join(tmpdir(), 'jig-addon-'));
    const prompts = join(logs, 'prompts.jsonl');
    const { jig, repo, home } = await agentSetup(
      {},
      { harnesses: haikuByDefault(), env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_PROMPT_LOG: prompts } },
    );
    await addCollection(jig, makeCollection('acme', { release: releaseAddon() }));
    const { installed } = await installAddon(jig, 'release', 'acme');

    const file = join(home, 'config', 'chains', 'mine.yaml');
    writeFileSync(
      file,
      `description: The add-on's notes node, then a task of ours on its skill.
nodes:
  - id: notes
    extends: release:notes
  - id: check
    kind: exec
    tasks:
      - id: changelog
        kind: agent
        harness: claude
        skill: release:notes
        prompt: Check the changelog.
`,
    );
    const reload = await post(jig, '/api/apply/reload');
    expect(reload.status, reload.text).toBe(200);
    expect(reload.json.loaded).toContain('chains/mine.yaml');
    expect(reload.json.refused).toEqual([]);

    const item = await fileItem(jig, repo, 'mine');
    const done = await until(jig, item.id, stopped);
    expect(done.status, JSON.stringify(done.stop)).toBe('completed');
    expect(frozenChain(home, item.id).addons).toEqual({ release: installed.digest });
    const skill = '# Release notes\nList user-visible changes, newest first.';
    expect(jsonLines(prompts).map((l) => [l.prompt, l.system_prompt, l.model])).toEqual([
      [
        `Work item ${item.id}: Run mine\n\nYour task: Write the release notes for this change.`,
        systemPrompt(skill, 'Keep it short and plain.'),
        'sonnet',
      ],
      [
        `Work item ${item.id}: Run mine\n\nYour task: Check the changelog.`,
        `${CONTRACT_TEXT.trimEnd()}\n\n${skill}`,
        'haiku',
      ],
    ]);

    const refused = await http(`${jig.url}/api/addons/release`, {
      method: 'PATCH',
      body: { enabled: false },
    });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.code).toBe('addon_in_use');
    expect(refused.json.detail).toBe(
      'add-on release is still used by your configuration: chains/mine.yaml:4 (notes), chains/mine.yaml:11 (check.main.changelog)',
    );
    expect(refused.json.uses.map((u: any) => [u.file, u.line, u.path, u.field])).toEqual([
      ['chains/mine.yaml', 4, 'notes', 'extends'],
      ['chains/mine.yaml', 11, 'check.main.changelog', 'skill'],
    ]);

    rmSync(file);
    const again = await post(jig, '/api/apply/reload');
    expect(again.status, again.text).toBe(200);
    expect(again.json.loaded).not.toContain('chains/mine.yaml');
    const off = await http(`${jig.url}/api/addons/release`, { method: 'PATCH', body: { enabled: false } });
    expect(off.status, off.text).toBe(200);
    expect(off.json).toMatchObject({ namespace: 'release', enabled: false, state: 'disabled', problems: [] });
    const filed = await http(`${jig.url}/api/work-items`, {
      method: 'POST',
      body: { title: 'Notes', repo, chain: 'release:ship' },
    });
    expect(filed.status, filed.text).toBe(422);
    expect(filed.json).toEqual({
      code: 'chain_unresolved',
      detail: 'chain release:ship does not resolve: add-on `release` is disabled',
    });
  });

  it('a schedule, a repo default chain, and a chain or library task naming its skill each keep the add-on from being uninstalled', async () => {
    const { jig, repo, home } = await agentSetup({}, { harnesses: haikuByDefault() });
    await addCollection(jig, makeCollection('acme', { release: releaseAddon() }));
    await installAddon(jig, 'release', 'acme');
    const uninstall = () => http(`${jig.url}/api/addons/release`, { method: 'DELETE' });

    const intake = join(home, 'config', 'intake.yaml');
    writeFileSync(
      intake,
      `schedules:
  - cron: 0 9 * * 1
    repo: ${repo}
    chain: release:ship
    title: Weekly release notes
`,
    );
    const bySchedule = await uninstall();
    expect(bySchedule.status, bySchedule.text).toBe(409);
    expect(bySchedule.json.code).toBe('addon_in_use');
    expect(bySchedule.json.detail).toBe(
      'add-on release is still used by your configuration: intake.yaml:4 (schedules.0)',
    );

    writeFileSync(intake, 'schedules: []\n');
    setRepoKeys(home, repo, { default_chain: 'release:ship' });
    const byRepo = await uninstall();
    expect(byRepo.status, byRepo.text).toBe(409);
    expect(byRepo.json.code).toBe('addon_in_use');
    const line = lineOf(join(home, 'config', 'repos.yaml'), 'default_chain: release:ship');
    expect(byRepo.json.detail).toBe(
      `add-on release is still used by your configuration: repos.yaml:${line} (repos.0)`,
    );

    // A task of ours naming the add-on's skill, and nothing else of it.
    setRepoKeys(home, repo, { default_chain: 'default' });
    const skilled = join(home, 'config', 'chains', 'skilled.yaml');
    writeFileSync(
      skilled,
      `nodes:
  - id: check
    kind: exec
    tasks:
      - id: changelog
        kind: agent
        harness: claude
        skill: release:notes
        prompt: Check the changelog.
`,
    );
    const bySkill = await uninstall();
    expect(bySkill.status, bySkill.text).toBe(409);
    expect(bySkill.json.code).toBe('addon_in_use');
    expect(bySkill.json.detail).toBe(
      'add-on release is still used by your configuration: chains/skilled.yaml:8 (check.main.changelog)',
    );

    rmSync(skilled);

    // A library task of ours naming it.
    const library = join(home, 'config', 'library.yaml');
    const seeded = readFileSync(library, 'utf8');
    const doc = parseDocument(seeded);
    doc.setIn(['tasks', 'changelog_check'], {
      kind: 'agent',
      harness: 'claude',
      skill: 'release:notes',
      prompt: 'Check the changelog.',
    });
    writeFileSync(library, doc.toString());
    const byLibrary = await uninstall();
    expect(byLibrary.status, byLibrary.text).toBe(409);
    expect(byLibrary.json.detail).toBe(
      `add-on release is still used by your configuration: library.yaml:${lineOf(library, 'skill: release:notes')} (tasks.changelog_check)`,
    );

    writeFileSync(library, seeded);
    const gone = await uninstall();
    expect(gone.status, gone.text).toBe(204);
    expect(versionFolders(home, 'release')).toEqual([]);
  });

  it('a pinned version missing from the content store stops the item; once it is back, a retry reads it', async () => {
    const logs = mkdtempSync(join(tmpdir(), 'jig-addon-'));
    const prompts = join(logs, 'prompts.jsonl');
    const { jig, repo, home } = await agentSetup(
      {},
      { harnesses: haikuByDefault(), env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_PROMPT_LOG: prompts } },
    );
    await addCollection(
      jig,
      makeCollection('acme', { release: releaseAddon({ extra: { 'chains/held.yaml': HELD_CHAIN } }) }),
    );
    const v1 = (await installAddon(jig, 'release', 'acme')).installed.digest;
    const item = await fileItem(jig, repo, 'release:held');
    await until(jig, item.id, atGate('hold'));

    const folder = join(home, 'addons', 'release', hexOf(v1));
    rmSync(folder, { recursive: true });
    expect((await http(`${jig.url}/api/addons`)).json.addons[0].state).toBe('missing');
    expect((await post(jig, `/api/work-items/${item.id}/gates/hold/approve`)).status).toBe(200);
    const stuck = await until(jig, item.id, (i) => stopped(i) && i.current_node === 'notes');
    expect(stuck.stop).toEqual({
      kind: 'config',
      reason: `notes.main.write: add-on \`release\` at ${v1.slice(0, 19)}…, the version this item started with, is not in ${join(home, 'addons')}: install that version again (the restore at start does, from addons.lock) and retry`,
      suggested_action: null,
    });
    expect(jsonLines(prompts)).toEqual([]);

    // Installed again, the same version is back in its folder; the item's retry reads it.
    expect((await http(`${jig.url}/api/addons/release`, { method: 'DELETE' })).status).toBe(204);
    expect((await installAddon(jig, 'release', 'acme')).installed.digest).toBe(v1);
    expect(existsSync(folder)).toBe(true);
    const retry = await post(jig, `/api/work-items/${item.id}/retry`);
    expect(retry.status, retry.text).toBe(200);
    await until(jig, item.id, atGate('approve'));
    expect(jsonLines(prompts).map((l) => l.system_prompt)).toEqual([
      systemPrompt('# Release notes\nList user-visible changes, newest first.', 'Keep it short and plain.'),
    ]);
  });

  it('an item draft adding an add-on node pins the add-on at the version installed, and the node runs it', async () => {
    const logs = mkdtempSync(join(tmpdir(), 'jig-addon-'));
    const prompts = join(logs, 'prompts.jsonl');
    const { jig, repo, home } = await agentSetup(
      { waiting: 'nodes:\n  - id: hold\n    kind: gate\n    message: Wait.\n' },
      { harnesses: haikuByDefault(), env: { FAKE_AGENT_MODE: 'done', FAKE_AGENT_PROMPT_LOG: prompts } },
    );
    await addCollection(jig, makeCollection('acme', { release: releaseAddon() }));
    const { installed } = await installAddon(jig, 'release', 'acme');
    const item = await fileItem(jig, repo, 'waiting');
    await until(jig, item.id, atGate('hold'));
    expect(frozenChain(home, item.id).addons).toBeUndefined();
    const put = await http(`${jig.url}/api/work-items/${item.id}/draft`, {
      method: 'PUT',
      body: { ops: [{ op: 'add_node', after: 'hold', node: { id: 'notes', extends: 'release:notes' } }] },
    });
    expect(put.status, put.text).toBe(200);
    const applied = await post(jig, `/api/work-items/${item.id}/draft/apply`);
    expect(applied.status, applied.text).toBe(200);
    expect(frozenChain(home, item.id).addons).toEqual({ release: installed.digest });
    expect((await post(jig, `/api/work-items/${item.id}/gates/hold/approve`)).status).toBe(200);
    await until(jig, item.id, (i) => i.status === 'completed');
    expect(jsonLines(prompts).map((l) => l.system_prompt)).toEqual([
      systemPrompt('# Release notes\nList user-visible changes, newest first.', 'Keep it short and plain.'),
    ]);
  });
});
