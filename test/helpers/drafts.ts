import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../src/runtime/clock.js';
import { startServer, type RunningServer } from './built.js';
import { http, tempHome, type HttpResult } from './server.js';
import { serverEnv } from './test-store.js';

export interface DraftsJig {
  srv: RunningServer;
  home: string;
  clock: ManualClock;
  call(method: string, path: string, body?: unknown): Promise<HttpResult>;
  /** Text of a config file on disk (null when missing). */
  disk(file: string): string | null;
}

/** An in-process server on the seeded config, reading a ManualClock (undo coalescing is timed). */
export async function draftsJig(): Promise<DraftsJig> {
  const home = tempHome('jig-drafts-');
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  const srv = await startServer({ port: 0, host: '127.0.0.1', env: await serverEnv(home), clock });
  return {
    srv,
    home,
    clock,
    call: (method, path, body) =>
      http(`${srv.url}${path}`, body === undefined ? { method } : { method, body }),
    disk: (file) => {
      try {
        return readFileSync(join(home, 'config', file), 'utf8');
      } catch {
        return null;
      }
    },
  };
}

/** `PUT /api/drafts/{area}/{key}/files/{file}` with the file's slash encoded, as clients send it. */
export const filePath = (area: string, key: string, file: string): string =>
  `/api/drafts/${area}/${key}/files/${encodeURIComponent(file)}`;
