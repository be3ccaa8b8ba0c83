import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EventActor } from '../contract/events.js';
import { MCP_VIA, VIA_HEADER } from '../contract/via.js';

/** A request's actor: a person, or an agent (a worker, the MCP tools). */
export type RequestActor = Extract<EventActor, 'human' | 'agent'>;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Who a move made by this request is recorded as (`by` of its events): `agent` for an item's
     * worker (it names its item) and for the MCP tools (they say so), else `human`: the board, the
     * CLI and any other client a person drives.
     */
    actor: RequestActor;
  }
}

/** The actor of a request, from what its client says of itself (worker.ts, mcp/http.ts). */
export function actorOf(req: Pick<FastifyRequest, 'headers'>): RequestActor {
  const worker = req.headers['x-jig-work-item'];
  if (typeof worker === 'string' && worker !== '') return 'agent';
  return req.headers[VIA_HEADER] === MCP_VIA ? 'agent' : 'human';
}

/** Sets `req.actor` on every request before its route runs. */
export function installActor(app: FastifyInstance): void {
  app.decorateRequest('actor', 'human');
  app.addHook('onRequest', async (req) => {
    req.actor = actorOf(req);
  });
}
