import { z } from 'zod';
import { LoginAnswer, LoginRequest } from '../auth.js';
import { ErrorBodySchema } from '../error-body.js';
import { defineRoute } from '../route.js';

/** Answers HTML (or a redirect once logged in), so it has no JSON answer to describe. */
export const loginPage = defineRoute({
  hide: true,
  method: 'GET',
  path: '/login',
  summary: 'The login page (plain HTML; needed off loopback)',
  tags: ['auth'],
  query: z.object({ next: z.string().max(2000).optional() }),
});

export const login = defineRoute({
  operationId: 'login',
  method: 'POST',
  path: '/api/auth/login',
  summary: 'Log in with the password; sets the session cookie (HttpOnly, SameSite=Strict)',
  description:
    'Failed logins are limited per peer address (429 with Retry-After). ' +
    'An HTML form body answers with a redirect (303) or the login page instead of JSON.',
  tags: ['auth'],
  body: LoginRequest,
  responses: {
    200: LoginAnswer,
    303: z.null().describe('an HTML form was sent: a redirect to its `next` (or the login page again)'),
    401: ErrorBodySchema.describe('wrong_password'),
    409: ErrorBodySchema.describe('password_not_set: no password is set (`jig admin password`)'),
    429: ErrorBodySchema.describe('too_many_attempts: failed logins from this address; see Retry-After'),
  },
});

export const logout = defineRoute({
  operationId: 'logout',
  method: 'POST',
  path: '/api/auth/logout',
  summary: 'End this browser session (deleted on the server; the cookie is cleared)',
  tags: ['auth'],
  responses: {
    204: z.null(),
    303: z.null().describe('an HTML form was sent: a redirect to the login page'),
  },
});
