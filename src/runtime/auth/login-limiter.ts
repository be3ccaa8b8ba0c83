/**
 * Failed logins per peer address. Written here rather than with @fastify/rate-limit because that
 * counts every request, and only failures must count: a user who types the password right is
 * never slowed, a guesser is stopped after a few tries. After `maxFailures` failures within
 * `windowMs` of the first one, the address is refused (correct password included) until the window
 * ends. Behind a reverse proxy every caller shares the proxy's address, and so its allowance.
 */
export interface LimiterOptions {
  maxFailures: number;
  windowMs: number;
  /** Addresses remembered at most; the oldest entry goes first, so memory stays bounded. */
  maxPeers: number;
  now: () => number;
}

const DEFAULTS: LimiterOptions = {
  maxFailures: 5,
  windowMs: 15 * 60 * 1000,
  maxPeers: 10_000,
  now: Date.now,
};

interface Entry {
  failures: number;
  since: number;
}

export class LoginLimiter {
  private readonly opts: LimiterOptions;
  private readonly peers = new Map<string, Entry>();

  constructor(opts: Partial<LimiterOptions> = {}) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  private entry(peer: string): Entry | undefined {
    const e = this.peers.get(peer);
    if (e && this.opts.now() - e.since >= this.opts.windowMs) {
      this.peers.delete(peer);
      return undefined;
    }
    return e;
  }

  /** Seconds until this peer may try again, or 0 when it may try now. */
  blockedFor(peer: string): number {
    const e = this.entry(peer);
    if (!e || e.failures < this.opts.maxFailures) return 0;
    return Math.max(1, Math.ceil((e.since + this.opts.windowMs - this.opts.now()) / 1000));
  }

  fail(peer: string): void {
    const e = this.entry(peer);
    if (e) {
      e.failures += 1;
      return;
    }
    if (this.peers.size >= this.opts.maxPeers) {
      const oldest = this.peers.keys().next();
      if (!oldest.done) this.peers.delete(oldest.value);
    }
    this.peers.set(peer, { failures: 1, since: this.opts.now() });
  }

  succeed(peer: string): void {
    this.peers.delete(peer);
  }
}
