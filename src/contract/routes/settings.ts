import { ErrorBodySchema } from '../error-body.js';
import { defineRoute } from '../route.js';
import { AccessAnswer, AccessPutBody, ThemeAnswer, ThemePutBody } from '../settings-route.js';

export const getTheme = defineRoute({
  method: 'GET',
  path: '/api/theme',
  summary: 'The board’s appearance (theme.yaml)',
  tags: ['settings'],
  responses: { 200: ThemeAnswer },
});

export const putTheme = defineRoute({
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
  method: 'GET',
  path: '/api/access',
  summary: 'Where the server listens and who may reach it (access.yaml), beside where it listens now',
  tags: ['settings'],
  responses: { 200: AccessAnswer },
});

export const putAccess = defineRoute({
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
