import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { RouteContract } from '../contract/route.js';
import { ErrorBodySchema } from '../contract/error-body.js';
import { classifyRoute } from '../core/perimeter/routes.js';
import { SESSION_COOKIE } from '../runtime/auth/auth-service.js';

/*
 * What the OpenAPI document says beyond each route's own description: how a caller proves who it
 * is, and the refusals every route of a kind can answer. Drawn from the perimeter's own route
 * classes (core/perimeter/routes.ts), so the document and the server cannot disagree on which
 * route needs what.
 */

const LOOPBACK =
  'Needed only when Jig listens off loopback (`jig serve --bind`): on the default loopback bind every route answers without it.';

export const SECURITY_SCHEMES = {
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    description: `The MCP token (the file \`run/mcp-token\` in JIG_HOME; \`jig admin rotate-tokens --mcp\` replaces it) as \`Authorization: Bearer <token>\`: every route. ${LOOPBACK}`,
  },
  triggerToken: {
    type: 'http',
    scheme: 'bearer',
    description: `The trigger token (the file \`run/trigger-token\` in JIG_HOME) as \`Authorization: Bearer <token>\`: valid on \`POST /api/triggers\` only. ${LOOPBACK}`,
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: `The board's login session (\`POST /api/auth/login\` with the password of access.yaml sets it). ${LOOPBACK}`,
  },
} as const;

type Requirement = Partial<Record<keyof typeof SECURITY_SCHEMES, string[]>>;

/** Any of these proves the caller (the document's top level: what most routes take). */
export const GUARDED: Requirement[] = [{ bearerToken: [] }, { session: [] }];

/** The requirement of one route: none for the open and login routes, one more for the triggers. */
export function securityOf(route: Pick<RouteContract, 'method' | 'path'>): Requirement[] {
  switch (classifyRoute(route.method, route.path)) {
    case 'open':
    case 'login':
      return [];
    case 'trigger':
      return [...GUARDED, { triggerToken: [] }];
    case 'guarded':
      return GUARDED;
  }
}

const error = (why: string): z.ZodType => ErrorBodySchema.describe(why);

/** The refusals' schemas, built once: every route refers to the same few. */
const REFUSED = {
  readWrite: error('invalid_json (the body is not JSON) or bad_request (a request Jig cannot read)'),
  readGet: error('bad_request: a request Jig cannot read (a GET with a body)'),
  login: error('login_required: off loopback, no valid token or session was sent'),
  perimeterWrite: error(
    'host_not_allowed, cross_site_write (a browser write from another origin) or remote_needs_password',
  ),
  perimeterGet: error('host_not_allowed or remote_needs_password'),
  notFound: error('not found: no such thing by that name'),
  tooLarge: error('payload_too_large: the body is over the limit'),
  mediaType: error('unsupported_media_type: a body that is not application/json'),
  invalid: error('validation_failed: a parameter, the query or the body does not match this route'),
};

/** What decides a route's refusals: its method, its path, and whether it takes params or a body. */
interface RouteShape {
  method: string;
  path: string;
  params: boolean;
  body: boolean;
}

/**
 * The refusals a route can answer whatever its handler does (docs/errors.md): the perimeter's,
 * the checks of what was sent, the body parser's. A route's own `responses` say more and win.
 * (Checked against what the route fuzz gets back: test/fuzz-routes.test.ts.)
 */
export function declaredErrors(route: RouteShape): Record<number, z.ZodType> {
  const write = route.method !== 'GET';
  const kind = classifyRoute(route.method, route.path);
  const out: Record<number, z.ZodType> = {
    400: write ? REFUSED.readWrite : REFUSED.readGet,
    403: write ? REFUSED.perimeterWrite : REFUSED.perimeterGet,
    422: REFUSED.invalid,
  };
  if (kind === 'guarded' || kind === 'trigger') out[401] = REFUSED.login;
  if (route.params) out[404] = REFUSED.notFound;
  if (write) {
    out[413] = REFUSED.tooLarge;
    out[415] = REFUSED.mediaType;
  }
  return out;
}

/**
 * The document's transform: each route's refusals added to what it declares, then zod's schemas
 * as JSON Schema. Added here, when the document is drawn, rather than to the routes themselves:
 * the serializer answers any catalogue error without them (serializer.ts), and as route schemas
 * they cost every start a serializer per status per route (about 4 MiB of memory).
 */
export const documentTransform: typeof jsonSchemaTransform = (input) => {
  const { schema, url, route } = input;
  const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
  const errors = declaredErrors({ method, path: url, params: 'params' in schema, body: 'body' in schema });
  const response = { ...errors, ...(schema.response as Record<number, unknown> | undefined) };
  return jsonSchemaTransform({ ...input, schema: { ...schema, response } });
};
