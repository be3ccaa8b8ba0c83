import { z } from 'zod';
import { NotifyEvent, NotifyFormat } from './config/notify.js';

/** `GET /api/notify`: notify.yaml as Settings shows it; the URL and the secret only as set or not. */
export const NotifyAnswer = z.object({
  enabled: z.boolean(),
  url_set: z.boolean().describe('whether a webhook URL is set; the URL itself is never shown back'),
  secret_set: z.boolean().describe('whether a signing secret is set; never shown back'),
  format: NotifyFormat,
  chat_id: z.union([z.string(), z.number()]).nullable(),
  base_url: z.string().nullable(),
  events: z.array(NotifyEvent),
  problem: z.string().nullable().describe('why notify.yaml does not load (nothing is sent), else null'),
});
export type NotifyAnswer = z.infer<typeof NotifyAnswer>;

/** `PUT /api/notify`: the keys to change; a key left out keeps its value, null clears it. */
export const NotifyPutBody = z
  .object({
    enabled: z.boolean(),
    url: z.string().nullable(),
    format: NotifyFormat,
    chat_id: z.union([z.string(), z.number()]).nullable(),
    secret: z.string().nullable(),
    base_url: z.string().nullable(),
    events: z.array(NotifyEvent),
  })
  .partial()
  .strict();
export type NotifyPutBody = z.infer<typeof NotifyPutBody>;

/** `POST /api/notify/test`: what happened to the one message sent now. */
export const NotifyTestAnswer = z.object({
  sent: z.boolean().describe('the webhook answered 2xx'),
  status: z.number().int().nullable().describe("the webhook's last HTTP status; null when none came"),
  attempts: z.number().int().min(1),
  error: z.string().nullable().describe('why it was not sent, else null'),
});
export type NotifyTestAnswer = z.infer<typeof NotifyTestAnswer>;
