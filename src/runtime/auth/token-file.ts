import { statSync } from 'node:fs';
import { readToken } from '../home/tokens.js';

/**
 * One token file (`run/mcp-token`, `run/trigger-token`), reread only when it changes: a stat per
 * check is cheap, and it makes `jig admin rotate-tokens` (which renames a new file over the old)
 * take effect at the very next request, with no reload call and no restart.
 */
export class TokenFile {
  private key = '';
  private value: string | null = null;

  constructor(readonly path: string) {}

  current(): string | null {
    let key: string;
    try {
      const st = statSync(this.path);
      key = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    } catch {
      // A deleted token file accepts nothing until the next start writes a new one.
      this.key = '';
      this.value = null;
      return null;
    }
    if (key !== this.key) {
      this.value = readToken(this.path);
      this.key = key;
    }
    return this.value;
  }
}
