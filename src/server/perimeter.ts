import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JigError } from '../contract/errors.js';
import {
  decide,
  refusalError,
  type Caller,
  type Decision,
  type PerimeterHeaders,
  type PresentedCredentials,
} from '../core/perimeter/decide.js';
import { hostName, isLoopbackBind } from '../core/perimeter/hosts.js';
import { SESSION_COOKIE, type AuthService } from '../runtime/auth/auth-service.js';
import type { Instance } from '../runtime/instance.js';
import { escapeHtml, sendHtml, simplePage } from './html.js';
import { loginPage } from './login-page.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the perimeter let through (set on every request that reaches a route). */
    caller: Caller | null;
  }
}

const HEADERS = ['host', 'origin', 'referer', 'sec-fetch-site', 'accept', 'upgrade'] as const;

function perimeterHeaders(req: FastifyRequest): PerimeterHeaders {
  const out: PerimeterHeaders = {};
  for (const name of HEADERS) {
    const v = req.headers[name] as string | string[] | undefined;
    const one = Array.isArray(v) ? v[0] : v;
    if (one !== undefined) out[name] = one;
  }
  return out;
}

function hostPage(inst: Pick<Instance, 'port' | 'bind'>, sent: string): string {
  const name = hostName(sent);
  const shown = sent === '' ? '(no Host header)' : sent;
  const port = inst.port > 0 ? `:${inst.port}` : '';
  const advice = isLoopbackBind(inst.bind)
    ? `<p>This server is bound to <code>${escapeHtml(inst.bind)}</code> (loopback), so it answers only to
<code>localhost</code>, <code>127.0.0.1</code> or <code>[::1]</code>: open
<a href="http://localhost${port}/">http://localhost${port}/</a> on this machine. A tunnel or reverse proxy
in front of Jig must send one of those names as its Host.</p>`
    : `<p>This server is bound to <code>${escapeHtml(inst.bind)}</code>. Browsers may reach it by a loopback name
(<code>localhost</code>, <code>127.0.0.1</code>, <code>[::1]</code>) or by a name listed in
<code>allowed_hosts</code>. To use this name, add <code>${escapeHtml(name)}</code> to <code>allowed_hosts</code>
in <code>access.yaml</code> (no restart needed).</p>`;
  return simplePage(
    'Host not allowed',
    `<p>This request was addressed to <code>${escapeHtml(shown)}</code>, a name Jig does not answer to.</p>\n${advice}`,
  );
}

function refusalPage(err: JigError): string {
  return simplePage('Refused', `<p>${escapeHtml(err.message)}</p>`);
}

function refuse(
  inst: Pick<Instance, 'port' | 'bind'>,
  req: FastifyRequest,
  reply: FastifyReply,
  d: Exclude<Decision, { allow: true }>,
): FastifyReply {
  const err = refusalError(d);
  if (d.html) {
    if (d.code === 'host_not_allowed')
      return sendHtml(reply, d.status, hostPage(inst, req.headers.host ?? ''));
    if (d.status === 401) return sendHtml(reply, 401, loginPage(req.url, null));
    return sendHtml(reply, d.status, refusalPage(err));
  }
  if (d.status === 401) void reply.header('www-authenticate', 'Bearer realm="jig"');
  return reply.code(d.status).send(err.toBody());
}

/**
 * The perimeter (spec: Authentication): one onRequest hook on the root, so it runs before any body
 * is read on every route, on 404s, and on WebSocket upgrade requests (which reach Fastify's router
 * as GETs). The decision itself is `core/perimeter/decide.ts`; this only gathers its inputs.
 */
export async function installPerimeter(
  app: FastifyInstance,
  inst: Pick<Instance, 'port' | 'bind'> & { auth: AuthService },
): Promise<AuthService> {
  const { auth } = inst;
  await app.register(cookie);
  app.decorateRequest('caller', null);

  // The bind is fixed for the server's life. On a loopback bind credentials, the password and
  // allowed_hosts change nothing (decide.ts), so no token is compared, no session read and no
  // access.yaml looked at: the perimeter costs no system call per request.
  const loopback = isLoopbackBind(inst.bind);
  const noCredentials: PresentedCredentials = { bearer: null, session: null };
  app.addHook('onRequest', async (req, reply) => {
    const policy = loopback ? { allowedHosts: [], passwordSet: false } : auth.policy();
    const credentials: PresentedCredentials = loopback
      ? noCredentials
      : {
          bearer: auth.bearer(req.headers.authorization),
          session: await auth.session(req.cookies[SESSION_COOKIE]),
        };
    const d = decide({
      bind: inst.bind,
      allowedHosts: policy.allowedHosts,
      passwordSet: policy.passwordSet,
      peer: req.socket.remoteAddress ?? '',
      method: req.method,
      // The matched route's pattern: the class follows the handler that will answer, however the
      // path was spelled (encoded, dotted); a path no route matches is guarded.
      path: req.routeOptions.url ?? req.url.split('?')[0] ?? req.url,
      headers: perimeterHeaders(req),
      credentials,
    });
    if (!d.allow) return refuse(inst, req, reply, d);
    req.caller = d.caller;
  });
  return auth;
}
