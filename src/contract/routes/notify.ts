import { ErrorBodySchema } from '../error-body.js';
import { NotifyAnswer, NotifyPutBody, NotifyTestAnswer } from '../notify-route.js';
import { defineRoute } from '../route.js';

export const getNotify = defineRoute({
  operationId: 'getNotify',
  method: 'GET',
  path: '/api/notify',
  summary: 'Notification settings (notify.yaml); the URL and the secret only as set or not',
  description:
    'What Settings › Notifications shows. `url_set` and `secret_set` say whether they are set: ' +
    'neither is ever answered. `problem` says why notify.yaml does not load (then nothing is sent).',
  tags: ['settings'],
  responses: { 200: NotifyAnswer },
});

export const putNotify = defineRoute({
  operationId: 'putNotify',
  method: 'PUT',
  path: '/api/notify',
  summary: 'Change notification settings; comments in notify.yaml are kept',
  description:
    'Each key given replaces its value (null clears `url`, `secret`, `chat_id`, `base_url`); a key ' +
    'left out keeps it. The result is checked as the server reads it (422 `notify_invalid` naming ' +
    'the field) and written atomically, readable by its owner only; it applies at once.',
  tags: ['settings'],
  body: NotifyPutBody,
  responses: { 200: NotifyAnswer, 422: ErrorBodySchema },
});

export const testNotify = defineRoute({
  operationId: 'testNotify',
  method: 'POST',
  path: '/api/notify/test',
  summary: 'Send one test notification now and answer what happened',
  description:
    'One attempt, signed as every message is, whether or not notifications are enabled. 409 ' +
    '`notify_refused` while notify.yaml does not load (naming its problems), `notify_not_configured` ' +
    'while no URL is set.',
  tags: ['settings'],
  responses: { 200: NotifyTestAnswer, 409: ErrorBodySchema },
});
