import { checkUpdate as check, getUpdate as cached } from '../contract/routes/update.js';
import type { Channel } from '../core/update/versions.js';
import type { JigClient } from './http.js';

export const getUpdate = (c: JigClient, channel: Channel) => c.call(cached, { query: { channel } });
export const checkUpdate = (c: JigClient, channel: Channel) => c.call(check, { body: { channel } });
