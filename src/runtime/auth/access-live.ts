import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { AccessFile } from '../../contract/config/access.js';
import { readAccess } from '../config/access.js';
import type { Instance } from '../instance.js';

/**
 * `access.yaml` as it is now. `jig admin password` and hand edits of `allowed_hosts` or
 * `session_expiry_days` take effect at the next request: the file is reread when its stat changes
 * (one stat per request). `bind` and `port` still need a restart; the server keeps the ones it
 * listens on in `inst.bind`/`inst.port`. A file that stops loading leaves the safe defaults in
 * force, as at start: no password (remote callers refused) and no allowed hosts.
 */
export class LiveAccess {
  private key: string;
  private readonly path: string;

  constructor(private readonly inst: Instance) {
    this.path = join(inst.paths.configDir, 'access.yaml');
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
      const { access, error } = readAccess(this.inst.paths.configDir);
      if (error) this.inst.log.warn({ error }, 'access.yaml does not load; using the safe defaults');
      else this.inst.log.info('access.yaml changed; using it');
      // Health reports session_expiry_days from here, so it follows the file too.
      this.inst.access = access;
    }
    return this.inst.access;
  }
}
