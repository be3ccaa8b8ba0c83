import { JigError } from '../../contract/errors.js';
import type { PresentedCredentials } from '../../core/perimeter/decide.js';
import { tokensEqual } from '../home/tokens.js';
import type { Instance } from '../instance.js';
import { LiveAccess } from './access-live.js';
import { LoginLimiter, type LimiterOptions } from './login-limiter.js';
import { verifyPassword } from './password.js';
import { passwordTag, SessionStore } from './sessions.js';
import { TokenFile } from './token-file.js';

/** The name of the browser session cookie. */
export const SESSION_COOKIE = 'jig_session';

export interface AccessPolicy {
  allowedHosts: readonly string[];
  passwordSet: boolean;
}

export interface LoginResult {
  token: string;
  expiresAt: Date;
  /** Seconds the cookie lives (the session's expiry, as `Max-Age`). */
  maxAgeS: number;
}

/**
 * Checks credentials for the perimeter and runs logins. Every token comparison is constant-time
 * (tokensEqual); no token, cookie or password is ever passed to the logger.
 */
export class AuthService {
  readonly access: LiveAccess;
  private readonly mcpToken: TokenFile;
  private readonly triggerToken: TokenFile;
  private readonly sessions: SessionStore;
  private readonly limiter: LoginLimiter;
  private readonly peerToken: string;

  constructor(
    d: Pick<Instance, 'paths' | 'log' | 'access' | 'store' | 'peerToken'> & { mcpToken: TokenFile },
    limits: Partial<LimiterOptions> = {},
  ) {
    this.peerToken = d.peerToken;
    this.access = new LiveAccess({ configDir: d.paths.configDir, log: d.log, atStart: d.access });
    this.mcpToken = d.mcpToken;
    this.triggerToken = new TokenFile(d.paths.triggerTokenPath);
    this.sessions = new SessionStore(d.store.db);
    this.limiter = new LoginLimiter(limits);
  }

  policy(): AccessPolicy {
    const a = this.access.current();
    return { allowedHosts: a.allowed_hosts, passwordSet: a.password_hash !== null };
  }

  private currentTag(): string | null {
    const hash = this.access.current().password_hash;
    return hash === null ? null : passwordTag(hash);
  }

  /** Which token `Authorization: Bearer …` carries; any other scheme counts as a wrong credential. */
  bearer(authorization: string | undefined): PresentedCredentials['bearer'] {
    if (authorization === undefined || authorization.trim() === '') return null;
    const m = /^bearer\s+(\S+)\s*$/i.exec(authorization.trim());
    if (!m) return 'invalid';
    const given = m[1]!;
    const mcp = this.mcpToken.current();
    const trigger = this.triggerToken.current();
    // Both comparisons always run, so the time taken does not tell which token came close.
    const isMcp = mcp !== null && tokensEqual(given, mcp);
    const isTrigger = trigger !== null && tokensEqual(given, trigger);
    // Another process sharing the store forwarding a request (server/forward.ts): the API's rights.
    const isPeer = tokensEqual(given, this.peerToken);
    if (isMcp || isPeer) return 'mcp';
    if (isTrigger) return 'trigger';
    return 'invalid';
  }

  async session(cookie: string | undefined): Promise<PresentedCredentials['session']> {
    if (cookie === undefined || cookie === '') return null;
    return this.sessions.check(cookie, this.currentTag());
  }

  /** Throws password_not_set, too_many_attempts or wrong_password; else a new session. */
  async login(peer: string, password: string): Promise<LoginResult> {
    const access = this.access.current();
    if (access.password_hash === null) throw new JigError('password_not_set');
    const wait = this.limiter.blockedFor(peer);
    if (wait > 0) throw new JigError('too_many_attempts', { seconds: wait }, { retry_after_s: wait });
    // Counted before the (slow) check, so parallel guesses cannot slip past the limit.
    this.limiter.fail(peer);
    if (!(await verifyPassword(access.password_hash, password))) throw new JigError('wrong_password');
    this.limiter.succeed(peer);
    const days = access.session_expiry_days;
    const { token, expiresAt } = await this.sessions.create(passwordTag(access.password_hash), peer, days);
    return { token, expiresAt, maxAgeS: Math.max(1, Math.floor(days * 86_400)) };
  }

  async logout(cookie: string | undefined): Promise<void> {
    if (cookie !== undefined && cookie !== '') await this.sessions.remove(cookie);
  }
}
