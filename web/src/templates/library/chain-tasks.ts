/** Canonical paths of the agent tasks of a resolved chain, in walk order. */
export function agentTasks(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) {
    for (const x of v) agentTasks(x, out);
    return out;
  }
  if (typeof v !== 'object' || v === null) return out;
  const rec: Record<string, unknown> = { ...v };
  if (rec.kind === 'agent' && typeof rec.path === 'string') out.push(rec.path);
  for (const x of Object.values(rec)) if (typeof x === 'object') agentTasks(x, out);
  return out;
}
