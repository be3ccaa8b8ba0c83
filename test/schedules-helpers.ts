import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../src/runtime/clock.js';
import { startServer, type RunningServer } from './helpers/built.js';
import { http, tempHome } from './helpers/server.js';

/** An in-process server on a temp home whose pollers read a ManualClock. */
export interface Booted {
  home: string;
  clock: ManualClock;
  server: RunningServer;
  url: string;
}

export async function boot(at: string, home = tempHome()): Promise<Booted> {
  const clock = new ManualClock(Date.parse(at));
  const server = await startServer({ port: 0, host: '127.0.0.1', env: { JIG_HOME: home }, clock });
  return { home, clock, server, url: server.url };
}

export type Entry = Record<string, string>;

/** YAML for a list of entries; values are written as double-quoted strings. */
export function entriesYaml(key: string, entries: Entry[]): string {
  if (entries.length === 0) return `${key}: []\n`;
  const items = entries.map(
    (e) =>
      `  - ${Object.entries(e)
        .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
        .join('\n    ')}`,
  );
  return `${key}:\n${items.join('\n')}\n`;
}

export function writeConfig(home: string, file: string, text: string): void {
  writeFileSync(join(home, 'config', file), text);
}

export function seededPolicy(home: string): string {
  return readFileSync(join(home, 'config', 'policy.yaml'), 'utf8');
}

export async function reload(b: Booted) {
  return http(`${b.url}/api/apply/reload`, { method: 'POST' });
}

export async function connect(b: Booted, path: string): Promise<void> {
  // Named: a repo connected where no agent CLI is installed would get `manual` (launch-check.test.ts).
  const r = await http(`${b.url}/api/repos`, { method: 'POST', body: { path, default_chain: 'default' } });
  if (r.status !== 201 && r.status !== 200) throw new Error(`connect ${path}: ${r.status} ${r.text}`);
}

export interface Filed {
  id: string;
  title: string;
  description: string;
  chain: string;
  status: string;
  source: string;
  by: string;
  schedule: { index: number; cron: string; source: string; minute: string };
}

/** Every item a schedule filed, oldest first, with its `work_item_created` payload's schedule. */
export async function filed(b: Booted): Promise<Filed[]> {
  const rows = await b.server.inst.store.db
    .selectFrom('events')
    .innerJoin('work_items', 'work_items.id', 'events.work_item_id')
    .select([
      'work_items.id',
      'work_items.title',
      'work_items.description',
      'work_items.chain',
      'work_items.status',
      'work_items.source',
      'events.by',
      'events.payload',
    ])
    .where('events.type', '=', 'work_item_created')
    .where('events.by', '=', 'schedule')
    .orderBy('events.seq')
    .execute();
  return rows.map((r) => {
    const payload = JSON.parse(r.payload) as { schedule: Filed['schedule'] };
    return { ...r, schedule: payload.schedule };
  });
}

/** `[minute HH:MM, title]` of each filed item, to compare firings at a glance. */
export async function firings(b: Booted): Promise<string[]> {
  return (await filed(b)).map((f) => `${f.schedule.minute.slice(11, 16)} ${f.title}`);
}

export interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

/** The server log's JSON lines (pino writes it synchronously). */
export function logLines(home: string): LogLine[] {
  return readFileSync(join(home, 'run', 'logs', 'server.log'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LogLine);
}

export const WARN = 40;
