import { http, type JigProcess } from './server.js';

/** The checks log, newest first. */
export const checks = async (jig: JigProcess, limit = 20): Promise<any[]> =>
  (await http(`${jig.url}/api/intake/checks?limit=${limit}`)).json;

/** The first poll runs as the server starts: waited for by count, not by time. */
export async function firstCheck(jig: JigProcess): Promise<any> {
  for (let i = 0; i < 300; i++) {
    const list = await checks(jig);
    if (list.length > 0) return list[0];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no auto-intake poll was recorded');
}
