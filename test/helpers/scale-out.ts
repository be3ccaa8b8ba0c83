import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { stringify } from 'yaml';
import { expect } from 'vitest';
import type { Database } from '../../src/store/schema.js';
import { http, tempHome } from './server.js';

/** A temp home with `repo` connected (no test or setup command) and `files` in its config/. */
export function scaleOutHome(repo: string, files: Record<string, string> = {}): string {
  const home = tempHome();
  mkdirSync(join(home, 'config'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(home, 'config', file), text);
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    stringify({ repos: [{ path: repo, test_command: '', setup_command: '' }] }),
  );
  return home;
}

/** The names of the live serves that lead, as `url`'s health lists them. */
export async function leaders(url: string): Promise<string[]> {
  const h = await http(`${url}/api/health`);
  expect(h.status, h.text).toBe(200);
  return (h.json.workers as { name: string; leads: boolean; alive: boolean }[])
    .filter((w) => w.leads && w.alive)
    .map((w) => w.name);
}

/** The items schedules filed in the store, as [title, minute], in the order filed. */
export async function scheduleFilings(db: Kysely<Database>): Promise<[string, string][]> {
  const rows = await db
    .selectFrom('events')
    .select('payload')
    .where('type', '=', 'work_item_created')
    .where('by', '=', 'schedule')
    .orderBy('seq')
    .execute();
  return rows.map((r) => {
    const p = JSON.parse(r.payload) as { title: string; schedule: { minute: string } };
    return [p.title, p.schedule.minute];
  });
}
