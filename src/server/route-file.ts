import type {
  ContextConfigDefault,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { WebsocketHandler } from '@fastify/websocket';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RouteContract } from '../contract/route.js';
import { securityOf } from './openapi-parts.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The module that registered the route (its `import.meta.url`), for the index in docs/routes.md. */
    routeSource?: string;
  }
}

export type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/**
 * The Fastify schema of a description, typed by its parts only (not by its path or summary), so
 * routes that take and answer the same things share one handler type.
 */
export interface SchemaOf<P, Q, B, H, A> extends FastifySchema {
  summary: string;
  description?: string;
  tags: readonly string[];
  hide?: boolean;
  params: P;
  querystring: Q;
  body: B;
  headers: H;
  response: A;
}

type SchemaFor<R extends RouteContract> = SchemaOf<
  R['params'],
  R['query'],
  R['body'],
  R['headers'],
  R['responses']
>;

type Options<R extends RouteContract> = RouteShorthandOptions<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaFor<R>,
  ZodTypeProvider
>;

/** What a route may add to its description: hooks of its own (the restart's onResponse). */
export type RouteHooks<R extends RouteContract> = Pick<Options<R>, 'preHandler' | 'onResponse'>;

type HandlerOf<S extends FastifySchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  ZodTypeProvider
>;

/** A route's handler type. Routes with the same parts (params, body, answers) share one handler. */
export type Handler<R extends RouteContract> = HandlerOf<SchemaFor<R>>;

export type SocketHandler<R extends RouteContract> = WebsocketHandler<
  RawServerDefault,
  RawRequestDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaFor<R>,
  ZodTypeProvider
>;

/** The registrar a route file gets: each route from its contract description, with its handler. */
export interface Routes {
  /** The plugin's own Fastify context, for what is not a route (a body parser, an onClose hook). */
  readonly app: ZodApp;
  serve<const R extends RouteContract>(
    route: R,
    handler: NoInfer<HandlerOf<SchemaFor<R>>>,
    hooks?: RouteHooks<R>,
  ): void;
  /** A WebSocket route: a GET whose handler receives the socket once the upgrade is accepted. */
  socket<const R extends RouteContract & { method: 'GET' }>(
    route: R,
    hooks: RouteHooks<R>,
    handler: NoInfer<SocketHandler<R>>,
  ): void;
}

function schemaOf<R extends RouteContract>(route: R): SchemaFor<R> {
  const s: FastifySchema & { operationId?: string; security?: unknown } = { summary: route.summary };
  if (route.description !== undefined) s.description = route.description;
  s.tags = route.tags;
  if (route.hide) s.hide = true;
  else {
    s.operationId = route.operationId;
    s.security = securityOf(route);
  }
  if (route.params) s.params = route.params;
  if (route.query) s.querystring = route.query;
  if (route.body) s.body = route.body;
  if (route.headers) s.headers = route.headers;
  // The refusals any route of its kind can answer are added when the document is drawn
  // (openapi-parts.ts documentTransform).
  if (route.responses) s.response = route.responses;
  // Built key by key so an absent part stays absent (Fastify and the OpenAPI transform test for
  // presence); the type is the description's own, which the object above has by construction.
  return s as SchemaFor<R>;
}

/**
 * A route file's plugin: `source` is the file's `import.meta.url`, recorded on each of its routes
 * so docs/routes.md can say where every handler lives.
 */
export function routeFile<A extends unknown[]>(
  source: string,
  register: (routes: Routes, ...args: A) => void | Promise<void>,
): (...args: A) => FastifyPluginAsyncZod {
  return (...args) =>
    async (app) => {
      const config = { routeSource: source };
      const routes: Routes = {
        app,
        serve(route, handler, hooks) {
          app.route({
            method: route.method,
            url: route.path,
            schema: schemaOf(route),
            config,
            ...hooks,
            handler,
          });
        },
        socket(route, hooks, handler) {
          app.route({
            method: 'GET',
            url: route.path,
            schema: schemaOf(route),
            config,
            ...hooks,
            websocket: true,
            handler,
          });
        },
      };
      await register(routes, ...args);
    };
}
