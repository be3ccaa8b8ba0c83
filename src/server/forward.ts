import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JigError } from '../contract/errors.js';
import type { Instance } from '../runtime/instance.js';

/*
 * Requests about an item walked on another machine (docs/scale-out.md "Files on a worker's
 * machine"). A worker keeps an item's worktree, its sessions' logs and the documents its tasks
 * wrote under its own JIG_HOME; the board asks whichever `jig serve` it reached. That serve hands
 * the request to the process holding the item (or, for a session's log, the one that ran it), which
 * answers from its files and the shared store, and passes the answer back as it came. Moves go the
 * same way, so a pause or cancel ends that machine's processes at once and an escalation turn runs
 * where the worktree is. One hop at most; an unreachable peer leaves the request to this process.
 */

/** Set on a forwarded request (the sender's name): the receiver answers it itself. */
export const FORWARDED_BY = 'x-jig-forwarded-by';
/** Set on an answer that came from another process (its name). */
export const ANSWERED_BY = 'x-jig-answered-by';

const ITEM_ROUTES = '/api/work-items/:id/';
/** Routes about the item that no machine's files change: answered where they arrive. */
const LOCAL = new Set(['events', 'sessions', 'merge-requests', 'attachments/:kind']);
const REQUEST_HEADERS = ['accept', 'if-none-match', 'if-match'] as const;
const ANSWER_HEADERS = ['content-type', 'etag', 'cache-control', 'location', 'retry-after', 'last-modified'];
/** A permission ask's long poll holds at most 20 s; anything longer is a peer that hangs. */
const PEER_TIMEOUT_MS = 30_000;

function stringParam(params: unknown, key: string): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const v: unknown = Reflect.get(params, key);
  return typeof v === 'string' ? v : undefined;
}

export function installForwarding(app: FastifyInstance, inst: Instance): void {
  if (inst.store.kind !== 'postgres') return;
  // After validation: the body is parsed (and checked) here, so a peer that cannot be reached
  // leaves a whole request for this process to answer.
  app.addHook('preHandler', async (req, reply) => {
    const pattern = req.routeOptions.url;
    if (!pattern?.startsWith(ITEM_ROUTES) || req.headers[FORWARDED_BY] !== undefined) return;
    const rest = pattern.slice(ITEM_ROUTES.length);
    if (LOCAL.has(rest) || req.headers.upgrade !== undefined) return;
    const id = stringParam(req.params, 'id');
    if (id === undefined) return;
    const session = rest.startsWith('sessions/:session') ? stringParam(req.params, 'session') : undefined;
    const peer = await inst.engine.peerFor(id, session);
    if (!peer) return;
    const read = req.method === 'GET' || req.method === 'HEAD';
    try {
      const answer = await relay(req, inst, peer);
      // A peer stopping (503) or failing answers a read here; a move's answer is the peer's.
      if (read && answer.status >= 500) throw new Error(`the peer answered ${answer.status}`);
      for (const [h, v] of answer.headers) void reply.header(h, v);
      return await reply.header(ANSWERED_BY, peer.name).code(answer.status).send(answer.body);
    } catch (err) {
      // A move may have been made when its answer was lost: only one never sent is made here.
      if (!read && !neverSent(err)) {
        req.log.warn({ err, peer: peer.name, url: req.url }, 'a forwarded move got no answer');
        throw new JigError('peer_unreachable', { worker: peer.name, reason: reasonOf(err) });
      }
      req.log.warn(
        { err, peer: peer.name, url: req.url },
        'the process holding the item did not answer; answering here',
      );
    }
  });
}

/** The connection was refused or its name not found: the request never reached the peer. */
function neverSent(err: unknown): boolean {
  const cause: unknown = err instanceof Error ? err.cause : undefined;
  const code: unknown = cause instanceof Error ? Reflect.get(cause, 'code') : undefined;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

function reasonOf(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return `no answer in ${PEER_TIMEOUT_MS / 1000} s`;
  const cause: unknown = err instanceof Error ? err.cause : undefined;
  if (cause instanceof Error) return cause.message;
  return err instanceof Error ? err.message : String(err);
}

interface Answer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

async function relay(
  req: FastifyRequest,
  inst: Instance,
  peer: { name: string; url: string; token: string },
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${peer.token}`,
    [FORWARDED_BY]: inst.engine.workerName,
  };
  for (const h of REQUEST_HEADERS) {
    const v = req.headers[h];
    if (typeof v === 'string') headers[h] = v;
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  const res = await fetch(`${peer.url}${req.url}`, {
    method: req.method,
    headers,
    ...(hasBody ? { body: JSON.stringify(req.body) } : {}),
    redirect: 'manual',
    signal: AbortSignal.timeout(PEER_TIMEOUT_MS),
  });
  const body = Buffer.from(await res.arrayBuffer());
  const out: [string, string][] = [];
  for (const h of ANSWER_HEADERS) {
    const v = res.headers.get(h);
    if (v !== null) out.push([h, v]);
  }
  return { status: res.status, headers: out, body };
}
