import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One HTTP route as both sides see it: the server registers it from this object (with its handler
 * in server/routes/), the client calls it by this object and checks the answer against `responses`,
 * and the OpenAPI document is drawn from it. Written once, so the three cannot drift.
 *
 * `path` is Fastify's pattern (`/api/work-items/:id/cancel`), always written out literally so a
 * search for a URL finds its description.
 */
export type RouteContract = RouteParts & (Listed | Hidden);

/** A route of the API: in the OpenAPI document, under a name generated clients call it by. */
interface Listed {
  /**
   * The operation's name in the OpenAPI document (a generated client's function): camelCase,
   * unique, and kept when the route's path changes. Usually the contract's own export name.
   */
  readonly operationId: string;
  readonly hide?: false;
}

/**
 * Left out of the OpenAPI document: what is not an API a client generator should call (the
 * board's pages and files, the login page, the document and its viewers, the MCP endpoint, the
 * WebSocket).
 */
interface Hidden {
  readonly hide: true;
  readonly operationId?: undefined;
}

interface RouteParts {
  readonly method: HttpMethod;
  readonly path: `/${string}`;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly headers?: z.ZodType;
  /** The answer's schema per status. An error status a route does not list still answers an error body. */
  readonly responses?: { readonly [status: number]: z.ZodType };
}

/** Keeps the literal types of a description (its path, its statuses), which both sides infer from. */
export const defineRoute = <const R extends RouteContract>(route: R): R => route;
