import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { AccessFile } from '../../contract/config/access.js';
import { readAccess } from '../config/access.js';
import type { Logger } from 'pino';

/**
 * `access.yaml` as it is now. `jig admin password` and hand edits of `allowed_hosts` or
 * `session_expiry_days` take effect at the next request: the file is reread when its stat changes
 * (one stat per request). `bind` and `port` still need a restart; the server keeps the ones it
 * listens on in `Instance.bind`/`port`. A file that stops loading leaves the safe defaults in
 * force, as at start: no password (remote callers refused) and no allowed hosts.
 */
export class LiveAccess {
  private key: string;
  private readonly path: string;
  /** The file as last read: what the start read, until its stat changes. */
  private now: AccessFile;

  constructor(
    private readonly d: { configDir: string; log: Pick<Logger, 'info' | 'warn'>; atStart: AccessFile },
  ) {
    this.path = join(d.configDir, 'access.yaml');
    this.now = d.atStart;
    // What main.ts read at start is current until the file changes.
    this.key = this.statKey();
  }

  private statKey(): string {
    try {
      const st = statSync(this.path);
      return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    } catch {
      return 'missing';
    }
  }

  current(): AccessFile {
    const key = this.statKey();
    if (key !== this.key) {
      this.key = key;
      const { access, error } = readAccess(this.d.configDir);
      if (error) this.d.log.warn({ error }, 'access.yaml does not load; using the safe defaults');
      else this.d.log.info('access.yaml changed; using it');
      // Health reports session_expiry_days from here, so it follows the file too.
      this.now = access;
    }
    return this.now;
  }
}
