/**
 * What a jailed task may ask of Jig's API through its relay (docs/sandbox.md): the same as the MCP
 * tools let a worker do on its own item, enforced outside the jail where the task cannot change it.
 * Reads of its own item and the health; the writes of a worker (progress, thread replies, merge
 * request labels, permission asks); an escalation turn also the moves a person may delegate to it
 * (pause, resume, retry, skip, complete, cancel, a budget raise, resolving threads). Never a gate
 * decision, a review, another item, or a setting.
 */

const WORKER_WRITES = [/^progress$/, /^threads$/, /^mr-labels$/, /^permission-asks$/, /^permission-check$/];
const ESCALATION_WRITES = [
  ...WORKER_WRITES,
  /^threads\/[^/]+\/(resolve|reopen)$/,
  /^(pause|resume|retry|skip|complete|cancel)$/,
  /^budget\/raise$/,
];

export type ApiVerdict = { ok: true } | { ok: false; reason: string };

export function sandboxApiVerdict(
  method: string,
  url: string,
  item: string,
  escalation: boolean,
): ApiVerdict {
  const path = url.split('?')[0] ?? '';
  const m = method.toUpperCase();
  const read = m === 'GET' || m === 'HEAD';
  if (read && path === '/api/health') return { ok: true };
  const own = `/api/work-items/${encodeURIComponent(item)}`;
  if (path === own && read) return { ok: true };
  if (path.startsWith(`${own}/`)) {
    const rest = path.slice(own.length + 1);
    if (read) return { ok: true };
    if (m === 'POST' && (escalation ? ESCALATION_WRITES : WORKER_WRITES).some((r) => r.test(rest)))
      return { ok: true };
  }
  return {
    ok: false,
    reason: `a sandboxed task may not ${m} ${path}: it reaches its own item only, as a worker does`,
  };
}
