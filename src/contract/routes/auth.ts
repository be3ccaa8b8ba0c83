import { z } from 'zod';
import { LoginAnswer, LoginRequest } from '../auth.js';
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
  responses: { 200: LoginAnswer },
});

export const logout = defineRoute({
  operationId: 'logout',
  method: 'POST',
  path: '/api/auth/logout',
  summary: 'End this browser session (deleted on the server; the cookie is cleared)',
  tags: ['auth'],
  responses: { 204: z.null() },
});
