import { AccessFile } from '../../contract/config/access.js';
import { JigError } from '../../contract/errors.js';
import type { AccessAnswer, AccessPutBody } from '../../contract/settings-route.js';
import { passwordProblem } from '../../core/perimeter/password-format.js';
import { hashPasswordHere, verifyPassword } from '../auth/password.js';
import { readAccess } from './access.js';
import { readConfigText, sha256Text } from './config-dir.js';
import type { ConfigFiles, ConfigWriter } from './config-writer.js';
import { saveSettings, settingsRefusal } from './settings-file.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

/**
 * `GET`/`PUT /api/access`: access.yaml as a settings form. `allowed_hosts` and
 * `session_expiry_days` are live (the perimeter rereads the file when it changes); the address and
 * port are read at start, so a saved change waits for a restart, which this says. The password
 * hash is neither answered nor written here.
 */
export class AccessSettings {
  /** sha256 of access.yaml as the server started on it. */
  readonly startSha: string | null;

  private readonly configDir: string;

  constructor(
    /** The home's config writer: a save's check and write run as one of its operations. */
    private readonly writer: ConfigWriter,
    /** Where the server listens, and what access.yaml said of it when the server started. */
    private readonly running: () => { bind: string; port: number },
    private readonly fileAtStart: { bind: string; port: number },
  ) {
    this.configDir = writer.configDir;
    this.startSha = sha256Text(readConfigText(this.configDir, 'access.yaml'));
  }

  view(): AccessAnswer {
    const { access, error } = readAccess(this.configDir);
    return {
      bind: access.bind,
      port: access.port,
      allowed_hosts: access.allowed_hosts,
      session_expiry_days: access.session_expiry_days,
      password_set: access.password_hash !== null,
      running: this.running(),
      restart_needed: this.restartNeeded(access),
      problem: error,
    };
  }

  /** The file's address or port changed since the start: the next start listens elsewhere. */
  restartNeeded(access = readAccess(this.configDir).access): boolean {
    return access.bind !== this.fileAtStart.bind || access.port !== this.fileAtStart.port;
  }

  /**
   * Sets (or, with null, clears) the login password. When one is set, the current one must be given:
   * a session left open on a shared screen does not hand over the instance. Sessions made before end
   * at their next request (the perimeter rereads the file).
   */
  async setPassword(password: string | null, current: string | undefined): Promise<AccessAnswer> {
    // The check of the current password and the write are one operation: a save of the address
    // cannot pass its password check between them.
    await this.writer.run(async (files) => {
      const { access } = readAccess(this.configDir);
      if (
        access.password_hash !== null &&
        !(current !== undefined && (await verifyPassword(access.password_hash, current)))
      )
        throw new JigError('wrong_password', {});
      if (password !== null) {
        const problem = passwordProblem(password);
        if (problem)
          throw new JigError(
            'validation_failed',
            { reason: `body.password: ${problem}` },
            { issues: [{ field: 'body.password', message: problem }] },
          );
      }
      this.write(files, { password_hash: password === null ? null : await hashPasswordHere(password) });
    });
    return this.view();
  }

  async save(body: AccessPutBody): Promise<AccessAnswer> {
    await this.writer.run((files) => {
      const { access } = readAccess(this.configDir);
      // Off loopback, only a password keeps strangers out: refused before anything is written.
      if (body.bind !== undefined && !LOOPBACK.has(body.bind) && access.password_hash === null)
        throw new JigError('remote_needs_password', {});
      this.write(files, body);
    });
    return this.view();
  }

  private write(files: ConfigFiles, patch: Record<string, unknown>): void {
    saveSettings(files, {
      file: 'access.yaml',
      schema: AccessFile,
      patch,
      // It holds the password hash.
      mode: 0o600,
      refuse: settingsRefusal('access.yaml'),
    });
  }
}
