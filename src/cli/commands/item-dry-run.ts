import type { z } from 'zod';
import type { DryRunAnswer } from '../../contract/items.js';

/**
 * `jig item create --dry-run` in words: what would be filed, which nodes run, and each agent task
 * this machine cannot launch (grouped by why), so a chain that needs an uninstalled CLI is caught
 * before it is filed and started, not a second after.
 */
export function describeDryRun(a: z.infer<typeof DryRunAnswer>): string {
  const w = a.would_file;
  const runs = w.nodes.filter((n) => n.skipped === null);
  const gates = w.gates.filter((g) => runs.some((n) => n.id === g)).length;
  const lines = [
    `would file "${w.title}" on ${w.chain}, ${w.status}: ${runs.length} of ${w.nodes.length} nodes run, ${gates} gate${gates === 1 ? '' : 's'}`,
  ];
  for (const n of w.nodes) if (n.skipped !== null) lines.push(`  ${n.id}: passed (${n.skipped})`);
  if (w.cannot_launch.length > 0) {
    const byReason = new Map<string, string[]>();
    for (const p of w.cannot_launch) byReason.set(p.reason, [...(byReason.get(p.reason) ?? []), p.task]);
    lines.push(`${w.cannot_launch.length} agent task(s) cannot start on this machine:`);
    for (const [reason, tasks] of byReason) lines.push(`  ${reason} (${tasks.join(', ')})`);
    lines.push('install the agent CLI, or pass --chain manual (a chain that needs none)');
  }
  return `${lines.join('\n')}\n`;
}
