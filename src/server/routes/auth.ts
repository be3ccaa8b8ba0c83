import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LoginAnswer, LoginRequest } from '../../contract/auth.js';
import { JigError } from '../../contract/errors.js';
import { isLoopbackBind } from '../../core/perimeter/hosts.js';
import { LOGIN_PAGE_PATH, LOGIN_PATH, LOGOUT_PATH } from '../../core/perimeter/routes.js';
import { SESSION_COOKIE, type AuthService } from '../../runtime/auth/auth-service.js';
import type { Instance } from '../../runtime/instance.js';
import { escapeHtml, sendHtml, simplePage } from '../html.js';

const FORM = 'application/x-www-form-urlencoded';

/** Where a form login may send the browser: a path on this server, nothing else (no open redirect). */
export function safeNext(next: string | undefined): string {
  if (next === undefined || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return '/';
  return /[\u0000-\u001f\u007f]/.test(next) ? '/' : next;
}

/** The plain login page: a form that works without the board and without JavaScript. */
export function loginPage(next: string, message: string | null): string {
  const note = message === null ? '' : `<p role="alert"><strong>${escapeHtml(message)}</strong></p>\n`;
  return simplePage(
    'Log in to Jig',
    `${note}<form method="post" action="${LOGIN_PATH}">
<input type="hidden" name="next" value="${escapeHtml(safeNext(next))}">
<p><label>Password<br><input type="password" name="password" autocomplete="current-password" required autofocus></label></p>
<p><button type="submit">Log in</button></p>
</form>`,
  );
}

function noPasswordPage(loopback: boolean): string {
  const why = loopback
    ? '<p>This server is bound to loopback: programs and browsers on this machine need no login.</p>'
    : '<p>No password is set, so nobody can log in, and callers from other machines are refused.</p>';
  return simplePage(
    'No password is set',
    `${why}\n<p>To set one, run <code>jig admin password</code> on the server's machine.</p>`,
  );
}

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
  return sendHtml(reply, status, html, { inlineStyles: true });
}

export function authRoutes(inst: Instance, auth: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    // Only this plugin reads HTML forms; everywhere else a body is JSON.
    app.addContentTypeParser(FORM, { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    app.get(
      LOGIN_PAGE_PATH,
      {
        schema: {
          summary: 'The login page (plain HTML; needed off loopback)',
          tags: ['auth'],
          querystring: z.object({ next: z.string().max(2000).optional() }),
        },
      },
      (req, reply) => {
        if (!auth.policy().passwordSet) return page(reply, 200, noPasswordPage(isLoopbackBind(inst.bind)));
        if (req.caller === 'session') return reply.redirect(safeNext(req.query.next), 303);
        return page(reply, 200, loginPage(req.query.next ?? '/', null));
      },
    );

    app.post(
      LOGIN_PATH,
      {
        schema: {
          summary: 'Log in with the password; sets the session cookie (HttpOnly, SameSite=Strict)',
          description:
            'Failed logins are limited per peer address (429 with Retry-After). ' +
            'An HTML form body answers with a redirect (303) or the login page instead of JSON.',
          tags: ['auth'],
          body: LoginRequest,
          response: { 200: LoginAnswer },
        },
      },
      async (req, reply) => {
        const form = isForm(req);
        let result;
        try {
          result = await auth.login(req.ip, req.body.password);
        } catch (err) {
          if (!(err instanceof JigError)) throw err;
          if (err.code === 'too_many_attempts')
            void reply.header('retry-after', String(err.extra.retry_after_s));
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
      },
    );

    app.post(
      LOGOUT_PATH,
      {
        schema: {
          summary: 'End this browser session (deleted on the server; the cookie is cleared)',
          tags: ['auth'],
          response: { 204: z.null() },
        },
      },
      async (req, reply) => {
        await auth.logout(req.cookies[SESSION_COOKIE]);
        void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict' });
        if (isForm(req)) return reply.redirect(LOGIN_PAGE_PATH, 303);
        return reply.code(204).send(null);
      },
    );
  };
}
