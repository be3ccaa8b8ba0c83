import { z } from 'zod';
import { readFileSync } from 'node:fs';
import type { NewEventOf } from '../../store/events.js';
import { planFiles } from './plan.js';
import { sandboxDir } from './prepare.js';

const Refusal = z.object({ at: z.string(), host: z.string(), port: z.number(), reason: z.string() });

/** One host and port the proxy refused a session, how often, and first when. */
export interface RefusedHost {
  host: string;
  port: number;
  reason: string;
  count: number;
  at: string;
}

/** At most this many hosts are reported for one session (a task looping on refusals names one). */
const MOST = 20;

/** What a session's egress proxy refused, by host and port, in the order first refused. */
export function readRefusals(runDir: string, sessionId: string): RefusedHost[] {
  // Written by the sandbox program outside the jail (the task cannot reach it); absent: none refused.
  let text: string;
  try {
    text = readFileSync(planFiles(sandboxDir(runDir, sessionId)).refusals, 'utf8');
  } catch {
    return [];
  }
  const by = new Map<string, RefusedHost>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    const r = Refusal.safeParse(raw);
    if (!r.success) continue;
    const key = `${r.data.host}:${r.data.port}`;
    const seen = by.get(key);
    if (seen) seen.count++;
    else if (by.size < MOST) by.set(key, { ...r.data, count: 1 });
  }
  return [...by.values()];
}

/** The `sandbox_egress_denied` events of a session as it is recorded: one per host and port. */
export function refusalEvents(
  runDir: string,
  s: { id: string; work_item_id: string; node: string; task_path: string },
): NewEventOf<'sandbox_egress_denied'>[] {
  return readRefusals(runDir, s.id).map((r) => ({
    work_item_id: s.work_item_id,
    type: 'sandbox_egress_denied',
    by: 'jig',
    node: s.node,
    payload: { session: s.id, task: s.task_path, ...r },
  }));
}
