import { ErrorBodySchema } from '../error-body.js';
import { defineRoute } from '../route.js';
import {
  AccessAnswer,
  AccessPutBody,
  PasswordBody,
  RotateTokensAnswer,
  RotateTokensBody,
  ThemeAnswer,
  ThemePutBody,
} from '../settings-route.js';

export const getTheme = defineRoute({
  operationId: 'getTheme',
  method: 'GET',
  path: '/api/theme',
  summary: 'The board’s appearance (theme.yaml)',
  tags: ['settings'],
  responses: { 200: ThemeAnswer },
});

export const putTheme = defineRoute({
  operationId: 'putTheme',
  method: 'PUT',
  path: '/api/theme',
  summary: 'Change the board’s appearance; comments in theme.yaml are kept',
  description:
    'Each key given replaces its value; `board` is merged key by key. Checked as the file is read ' +
    '(422 `settings_invalid` naming the field; nothing written), written atomically, in force at once.',
  tags: ['settings'],
  body: ThemePutBody,
  responses: { 200: ThemeAnswer, 422: ErrorBodySchema },
});

export const getAccess = defineRoute({
  operationId: 'getAccess',
  method: 'GET',
  path: '/api/access',
  summary: 'Where the server listens and who may reach it (access.yaml), beside where it listens now',
  tags: ['settings'],
  responses: { 200: AccessAnswer },
});

export const putAccess = defineRoute({
  operationId: 'putAccess',
  method: 'PUT',
  path: '/api/access',
  summary: 'Change the listen address, port, allowed hosts or session length; comments kept',
  description:
    '`allowed_hosts` and `session_expiry_days` apply at once; `bind` and `port` at the next restart ' +
    '(`restart_needed`, and `GET /api/apply` lists access.yaml). An address off loopback is refused ' +
    'while no password is set (403 `remote_needs_password`). 422 `settings_invalid` names the field.',
  tags: ['settings'],
  body: AccessPutBody,
  responses: { 200: AccessAnswer, 403: ErrorBodySchema, 422: ErrorBodySchema },
});

export const putAccessPassword = defineRoute({
  operationId: 'putAccessPassword',
  method: 'PUT',
  path: '/api/access/password',
  summary: 'Set or clear the login password (the current one must be given when one is set)',
  description:
    'Hashed with scrypt and written to access.yaml (mode 0600); browser sessions made before end. ' +
    '401 `wrong_password` when `current` is missing or wrong; 422 names `body.password` when it is ' +
    'too short or too long. Use TLS in front when this crosses a network.',
  tags: ['settings'],
  body: PasswordBody,
  responses: { 200: AccessAnswer, 401: ErrorBodySchema, 422: ErrorBodySchema },
});

export const rotateTokens = defineRoute({
  operationId: 'rotateTokens',
  method: 'POST',
  path: '/api/access/rotate-tokens',
  summary: 'Replace the MCP/CLI and trigger tokens with new random ones (0600 files in run/)',
  description:
    'Callers with the old value are refused from their next request. The new values are not answered: ' +
    'they are read from the files on the server’s machine, as the CLI does.',
  tags: ['settings'],
  body: RotateTokensBody,
  responses: { 200: RotateTokensAnswer },
});
