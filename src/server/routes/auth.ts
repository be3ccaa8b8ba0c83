import type { FastifyReply, FastifyRequest } from 'fastify';
import { isJigError } from '../../contract/errors.js';
import { login, loginPage as loginPageRoute, logout } from '../../contract/routes/auth.js';
import { isLoopbackBind } from '../../core/perimeter/hosts.js';
import { SESSION_COOKIE, type AuthService } from '../../runtime/auth/auth-service.js';
import type { Services } from '../compose.js';
import { sendHtml } from '../html.js';
import { loginPage, noPasswordPage, safeNext } from '../login-page.js';
import { routeFile } from '../route-file.js';

const FORM = 'application/x-www-form-urlencoded';

function isForm(req: FastifyRequest): boolean {
  return (req.headers['content-type'] ?? '').toLowerCase().startsWith(FORM);
}

/**
 * `Secure` when the browser reached us over https: TLS here, or a proxy's `X-Forwarded-Proto`.
 * Believing that header is safe for this one use: a lie can only make the caller's own cookie stricter.
 */
function overHttps(req: FastifyRequest): boolean {
  const proto = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase();
  return req.protocol === 'https' || first === 'https';
}

function page(reply: FastifyReply, status: number, html: string): FastifyReply {
  return sendHtml(reply, status, html);
}

/** The login page, and logging in and out (reachable without a login: core/perimeter/routes.ts). */
export const authRoutes = routeFile(import.meta.url, (r, inst: Pick<Services, 'bind'>, auth: AuthService) => {
  // Only this plugin reads HTML forms; everywhere else a body is JSON.
  r.app.addContentTypeParser(FORM, { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  r.serve(loginPageRoute, (req, reply) => {
    if (!auth.policy().passwordSet) return page(reply, 200, noPasswordPage(isLoopbackBind(inst.bind)));
    if (req.caller === 'session') return reply.redirect(safeNext(req.query.next), 303);
    return page(reply, 200, loginPage(req.query.next ?? '/', null));
  });

  r.serve(login, async (req, reply) => {
    const form = isForm(req);
    let result;
    try {
      result = await auth.login(req.ip, req.body.password);
    } catch (err) {
      if (!isJigError(err)) throw err;
      if (err.code === 'too_many_attempts') void reply.header('retry-after', String(err.extra.retry_after_s));
      req.log.info({ peer: req.ip, code: err.code }, 'login refused');
      if (!form) throw err;
      return page(reply, err.status, loginPage(req.body.next ?? '/', err.message));
    }
    req.log.info({ peer: req.ip }, 'logged in');
    void reply.setCookie(SESSION_COOKIE, result.token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: overHttps(req),
      path: '/',
      maxAge: result.maxAgeS,
    });
    if (form) return reply.redirect(safeNext(req.body.next), 303);
    return { expires_at: result.expiresAt.toISOString() };
  });

  r.serve(logout, async (req, reply) => {
    await auth.logout(req.cookies[SESSION_COOKIE]);
    void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict' });
    if (isForm(req)) return reply.redirect(loginPageRoute.path, 303);
    return reply.code(204).send(null);
  });
});
