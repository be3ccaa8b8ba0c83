import { peerBucket } from '../../core/perimeter/peer-bucket.js';

/**
 * Failed logins per peer range (`peerBucket`: one IPv4 address, an IPv6 /64, or all of loopback).
 * Written here rather than with @fastify/rate-limit because that counts every request, and only
 * failures must count: a user who types the password right is never slowed, a guesser is stopped
 * after a few tries. After `maxFailures` failures within `windowMs` of the first one, the range is
 * refused (correct password included) until the window ends. A range rather than an address,
 * because a host holding an IPv6 /64 could otherwise take a fresh address for every guess. Behind
 * a reverse proxy every caller shares the proxy's address, and so its allowance.
 */
export interface LimiterOptions {
  maxFailures: number;
  windowMs: number;
  /** Ranges remembered at most; the oldest entry goes first, so memory stays bounded. */
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
  /** Keyed by `peerBucket(address)`. */
  private readonly peers = new Map<string, Entry>();

  constructor(opts: Partial<LimiterOptions> = {}) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  private entry(bucket: string): Entry | undefined {
    const e = this.peers.get(bucket);
    if (e && this.opts.now() - e.since >= this.opts.windowMs) {
      this.peers.delete(bucket);
      return undefined;
    }
    return e;
  }

  /** Seconds until this peer's range may try again, or 0 when it may try now. */
  blockedFor(peer: string): number {
    const e = this.entry(peerBucket(peer));
    if (!e || e.failures < this.opts.maxFailures) return 0;
    return Math.max(1, Math.ceil((e.since + this.opts.windowMs - this.opts.now()) / 1000));
  }

  fail(peer: string): void {
    const bucket = peerBucket(peer);
    const e = this.entry(bucket);
    if (e) {
      e.failures += 1;
      return;
    }
    if (this.peers.size >= this.opts.maxPeers) {
      const oldest = this.peers.keys().next();
      if (!oldest.done) this.peers.delete(oldest.value);
    }
    this.peers.set(bucket, { failures: 1, since: this.opts.now() });
  }

  succeed(peer: string): void {
    this.peers.delete(peerBucket(peer));
  }
}
