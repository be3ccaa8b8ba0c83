import { drainBodilessRequests } from './drain-body.js';
import { boardRoutes } from './routes/board.js';
import { realpathSync } from 'node:fs';
import { HOME_MARK_HEADER, homeMark } from '../contract/home-mark.js';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
} from 'fastify';
import swagger from '@fastify/swagger';
import websocket, { type WebsocketPluginOptions } from '@fastify/websocket';
import {
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Services } from './compose.js';
import { answerClientError, answerFrameworkError, installErrorHandling } from './error-handler.js';
import { installJsonBodyParser } from './json-body.js';
import { serializerCompiler } from './serializer.js';
import { fastifyTimeouts } from './limits.js';
import { installPerimeter } from './perimeter.js';
import { installActor } from './actor.js';
import { installForwarding } from './forward.js';
import { adminRoutes } from './routes/admin.js';
import { applyRoutes } from './routes/apply.js';
import { authRoutes } from './routes/auth.js';
import { budgetRoutes } from './routes/budget.js';
import { draftRoutes } from './routes/drafts.js';
import { harnessRoutes } from './routes/harnesses.js';
import { healthRoutes } from './routes/health.js';
import { sandboxRoutes } from './routes/sandbox.js';
import { intakeRoutes } from './routes/intake.js';
import { notifyRoutes } from './routes/notify.js';
import { analyticsRoutes } from './routes/analytics.js';
import { storageRoutes } from './routes/storage.js';
import { addonsRoutes } from './routes/addons.js';
import { searchRoutes } from './routes/search.js';
import { settingsRoutes } from './routes/settings.js';
import { templateFileRoutes } from './routes/template-files.js';
import { mcpRoutes } from './routes/mcp.js';
import { policyRoutes } from './routes/policy.js';
import { policyPreviewRoutes } from './routes/policy-preview.js';
import { repoRoutes } from './routes/repos.js';
import { schemaDocsRoutes } from './routes/schema-docs.js';
import { templateRoutes } from './routes/templates.js';
import { recordingRoutes } from './routes/recordings.js';
import { triggerRoutes } from './routes/triggers.js';
import { updateRoutes } from './routes/update.js';
import { attachmentRoutes } from './routes/work-items/attachments.js';
import { itemChainRoutes } from './routes/work-items/chain.js';
import { itemBudgetRoutes } from './routes/work-items/budget.js';
import { itemDraftRoutes } from './routes/work-items/draft.js';
import { escalateRoutes } from './routes/work-items/escalate.js';
import { itemEventRoutes } from './routes/work-items/events.js';
import { gateRoutes } from './routes/work-items/gates.js';
import { workItemRoutes } from './routes/work-items/index.js';
import { moveRoutes } from './routes/work-items/moves.js';
import { progressRoutes } from './routes/work-items/progress.js';
import { reviewRoutes } from './routes/work-items/review.js';
import { documentRoutes } from './routes/work-items/documents.js';
import { threadRoutes } from './routes/work-items/threads.js';
import { permissionAskRoutes } from './routes/work-items/permission-asks.js';
import { mergeRequestRoutes } from './routes/work-items/merge-requests.js';
import { runRoutes } from './routes/work-items/run.js';
import { sessionRoutes } from './routes/work-items/sessions.js';
import { eventStreamRoutes } from './routes/ws/events.js';
import { documentTransform, GUARDED, SECURITY_SCHEMES } from './openapi-parts.js';

export interface RouteRecord {
  method: string;
  url: string;
  summary: string | undefined;
  /** The route file that registered it (its import.meta.url), for docs/routes.md. */
  source: string | undefined;
}

const BODY_LIMIT = 1024 * 1024;

/**
 * What every answer says of itself (docs/security.md, "Headers"): its content type is what it is
 * (`nosniff`: a browser never takes an item's title in JSON or a session's log for a page or a
 * script), and an answer that is not a page or a script is never run as one, even opened on its
 * own in a tab: no source of anything, no frame, a sandbox. Pages set their own policy (html.ts);
 * scripts get none, as a policy on a worker's script would be the worker's own.
 */
export const TEXT_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

function answerHeaders(reply: FastifyReply): void {
  void reply.header('x-content-type-options', 'nosniff');
  if (reply.hasHeader('content-security-policy')) return;
  const type = String(reply.getHeader('content-type') ?? '');
  if (type.startsWith('text/html') || type.includes('javascript')) return;
  void reply.header('content-security-policy', TEXT_CSP);
}

/** Builds the HTTP app for one instance. Listening, signals and the lock belong to server/main.ts. */
export async function buildApp(inst: Services): Promise<{ app: FastifyInstance; routes: RouteRecord[] }> {
  const app = Fastify({
    // pino's Logger is a FastifyBaseLogger; the cast keeps the app's type the default one.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it (see above)
    loggerInstance: inst.log as FastifyBaseLogger,
    // One line per refused request (below) is enough; a line per request would drown the log.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // Jig reads the peer address itself for its perimeter rules; no proxy headers are trusted.
    trustProxy: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Header, body, keep-alive and idle-socket timeouts (server/limits.ts).
    ...fastifyTimeouts(inst.connections.limits),
    // Refusals that happen before the error handler still answer `{detail, code}` (error-handler.ts).
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Every path param reaches its route's validation, which names the field: the request line is
    // already bounded by Node's 16 KiB header limit, and no route's param is a regular expression.
    routerOptions: { maxParamLength: 16 * 1024 },
  }).withTypeProvider<ZodTypeProvider>();

  // The connection caps, before a single request (connections.ts).
  inst.connections.install(app.server);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  drainBodilessRequests(app, BODY_LIMIT);

  const routes: RouteRecord[] = [];
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const m of methods)
      if (m !== 'HEAD')
        routes.push({ method: m, url: r.url, summary: r.schema?.summary, source: r.config?.routeSource });
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Jig',
        description:
          'Jig files work items and runs each through a chain of agent tasks, commands and human gates. ' +
          'Only POST /api/triggers and GET /api/health keep their shape between minor releases.',
        version: inst.version,
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      // The server answers on whatever address it is reached by: a client gives its own base URL.
      servers: [{ url: '/', description: 'this Jig server (http://127.0.0.1:8765 by default)' }],
      components: { securitySchemes: SECURITY_SCHEMES },
      security: GUARDED,
    },
    transform: documentTransform,
    // The named schemas (a chain's plan, which nests itself) as components the routes refer to.
    transformObject: jsonSchemaTransformObject,
  });

  installErrorHandling(app);
  installJsonBodyParser(app);

  // Once a stop begins, answers close their connection: a kept-alive socket would otherwise hold
  // the stop open until its keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const mark = homeMark(realHome(inst.paths.home));
  app.addHook('onSend', async (_req, reply) => {
    if (closing) void reply.header('connection', 'close');
    void reply.header(HOME_MARK_HEADER, mark);
    answerHeaders(reply);
  });
  app.addHook('onResponse', async (req, reply) => {
    if (reply.statusCode >= 400)
      req.log.info({ method: req.method, url: req.url, status: reply.statusCode }, 'request refused');
  });
  // Before every route: the Host, cross-site and login rules (spec: Authentication).
  const auth = await installPerimeter(app, inst);
  // Who each request's moves are recorded as (actor.ts).
  installActor(app);
  // Then: a request about an item walked on another machine is answered there (forward.ts).
  installForwarding(app, inst);

  // Route files are named by URL; docs/routes.md lists every route with its file.
  await app.register(authRoutes(inst, auth));
  await app.register(healthRoutes(inst));
  await app.register(adminRoutes(inst));
  // A worker answers its own tasks' calls on loopback; the board is the serving processes' (scale-out.md).
  if (inst.role === 'serve') await app.register(boardRoutes());
  await app.register(applyRoutes(inst));
  await app.register(templateRoutes(inst));
  await app.register(recordingRoutes(inst));
  await app.register(draftRoutes(inst));
  await app.register(policyPreviewRoutes(inst));
  await app.register(harnessRoutes(inst));
  await app.register(updateRoutes(inst));
  await app.register(policyRoutes(inst));
  await app.register(sandboxRoutes(inst));
  await app.register(schemaDocsRoutes());
  // A client that never answers Jig's close frame (one closed as too slow) is cut after a bound.
  // (ws 8.23 takes `closeTimeout`; @types/ws 8.18 does not list it, hence the wider type.)
  const options: WebsocketPluginOptions['options'] & { closeTimeout: number } = {
    maxPayload: 64 * 1024,
    closeTimeout: inst.connections.limits.closeTimeoutMs,
  };
  await app.register(websocket, { options });
  await app.register(triggerRoutes(inst));
  await app.register(workItemRoutes(inst));
  await app.register(moveRoutes(inst));
  await app.register(attachmentRoutes(inst));
  await app.register(itemChainRoutes(inst));
  await app.register(budgetRoutes(inst));
  await app.register(runRoutes(inst));
  await app.register(escalateRoutes(inst));
  await app.register(gateRoutes(inst));
  await app.register(progressRoutes(inst));
  await app.register(reviewRoutes(inst));
  await app.register(documentRoutes(inst));
  await app.register(threadRoutes(inst));
  await app.register(permissionAskRoutes(inst));
  await app.register(mergeRequestRoutes(inst));
  await app.register(itemBudgetRoutes(inst));
  await app.register(itemDraftRoutes(inst));
  await app.register(sessionRoutes(inst));
  await app.register(repoRoutes(inst));
  await app.register(itemEventRoutes(inst));
  await app.register(eventStreamRoutes(inst));
  await app.register(intakeRoutes(inst));
  await app.register(notifyRoutes(inst));
  await app.register(analyticsRoutes(inst));
  await app.register(storageRoutes(inst));
  await app.register(addonsRoutes(inst));
  await app.register(searchRoutes(inst));
  await app.register(settingsRoutes(inst));
  await app.register(templateFileRoutes(inst));
  await app.register(mcpRoutes(inst));
  await app.ready();
  return { app, routes };
}

/** The home as the file system names it, so a link to it marks the same home. */
function realHome(home: string): string {
  try {
    return realpathSync(home);
  } catch {
    return home;
  }
}
