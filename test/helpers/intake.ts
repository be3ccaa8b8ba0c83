import { eventually } from './eventually.js';
import { http, type JigProcess } from './server.js';

/** The checks log, newest first. */
export const checks = async (jig: JigProcess, limit = 20): Promise<any[]> =>
  (await http(`${jig.url}/api/intake/checks?limit=${limit}`)).json;

/** The first poll runs as the server starts: waited for by count, not by time. */
export const firstCheck = (jig: JigProcess): Promise<any> =>
  eventually(async () => (await checks(jig))[0], { what: 'an auto-intake poll to be recorded', everyMs: 50 });
