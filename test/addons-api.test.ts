import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { harnessesYaml } from './helpers/agents.js';
import { makeCollection, releaseAddon } from './helpers/addons.js';
import { cleanupAll, http, startJig, tempHome, type JigProcess } from './helpers/server.js';
import { mkdirSync, writeFileSync } from 'node:fs';

afterAll(cleanupAll);

async function start(): Promise<JigProcess> {
  const home = tempHome();
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'harnesses.yaml'), harnessesYaml());
  return startJig({ home });
}

describe('add-ons over the API', () => {
  it('adds a directory collection, reviews and installs an add-on, and its chain is there to file on', async () => {
    const jig = await start();
    const coll = makeCollection('acme', { release: releaseAddon() });
    const added = await http(`${jig.url}/api/addons/collections`, { method: 'POST', body: { source: coll } });
    expect(added.status, added.text).toBe(201);
    expect(added.json).toMatchObject({ name: 'acme', kind: 'dir', source: coll, commit: null, error: null });
    expect(added.json.addons).toEqual([
      { name: 'release', description: 'release things', version: '1.0.0', installed_as: [] },
    ]);

    const review = await http(`${jig.url}/api/addons/review`, {
      method: 'POST',
      body: { addon: 'release', collection: 'acme' },
    });
    expect(review.status, review.text).toBe(200);
    expect(review.json.problems).toEqual([]);
    expect(review.json.action).toBe('install');
    expect(review.json.reach.lines).toEqual([
      'gate chain release:ship › approve',
      'harness claude',
      'limit budget_usd 2 in library task release:notes_writer',
      'model sonnet on claude in profile release:careful',
      "profile fast (the instance's)",
    ]);
    expect(review.json.content.map((c: any) => `${c.kind} ${c.where}`)).toEqual([
      'prompt library task release:notes_writer',
      'steering steering release:tone',
      'skill skill release:notes',
    ]);

    const stale = await http(`${jig.url}/api/addons`, {
      method: 'POST',
      body: { addon: 'release', collection: 'acme', review: 'sha256:nope' },
    });
    expect(stale.status).toBe(409);
    expect(stale.json.code).toBe('addon_review_stale');

    const inst = await http(`${jig.url}/api/addons`, {
      method: 'POST',
      body: { addon: 'release', collection: 'acme', review: review.json.review },
    });
    expect(inst.status, inst.text).toBe(201);
    expect(inst.json).toMatchObject({
      namespace: 'release',
      version: '1.0.0',
      state: 'ok',
      chains: ['release:ship'],
      profiles: ['release:careful'],
      skills: ['release:notes'],
    });
    expect(existsSync(join(jig.home, 'config', 'addons.lock'))).toBe(true);
    const lock = JSON.parse(readFileSync(join(jig.home, 'config', 'addons.lock'), 'utf8'));
    expect(lock.addons.release.digest).toBe(review.json.to.digest);
    const listed = await http(`${jig.url}/api/addons`);
    expect(listed.json.addons.map((a: any) => a.namespace)).toEqual(['release']);
    const health = await http(`${jig.url}/api/health`);
    expect(health.json.invalid_templates).toBeNull();
  });

  it('a name Object.prototype has (`constructor`) is no add-on, collection or chain', async () => {
    const jig = await start();
    const addon = await http(`${jig.url}/api/addons/constructor`, {
      method: 'PATCH',
      body: { auto_update: true },
    });
    expect(addon.status).toBe(404);
    expect(addon.json).toEqual({
      code: 'addon_unknown',
      detail: 'no add-on is installed as constructor (installed: none); `jig admin addon list` lists them',
    });
    const coll = await http(`${jig.url}/api/addons/collections/constructor`, {
      method: 'PATCH',
      body: { auto_update: false },
    });
    expect(coll.status).toBe(404);
    expect(coll.json.code).toBe('addon_collection_unknown');
    const review = await http(`${jig.url}/api/addons/constructor/update`);
    expect(review.status).toBe(404);
    expect(review.json.code).toBe('addon_unknown');
  });
});
