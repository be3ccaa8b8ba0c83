import { z } from 'zod';
import { kind, num, str } from './event-kind-parts.js';

/** The event kinds of notifications (notify.yaml), part of the one catalogue (event-kinds.ts). */
export const notifyEventKinds = {
  notification_failed: kind(
    'A notification about the item could not be delivered after its retries; the item goes on. The URL is never recorded.',
    z.strictObject({ event: str, attempts: num, status: num.nullable(), reason: str }),
  ),
};
