import { describe, expect, it } from 'vitest';
import { hashPassword } from '../src/client/password-hash.js';
import { parsePasswordHash, passwordProblem } from '../src/core/perimeter/password-format.js';
import { LoginLimiter } from '../src/runtime/auth/login-limiter.js';
import { verifyPassword } from '../src/runtime/auth/password.js';

/** The pieces under the login, in process: the limiter's window (with a fake clock) and the hash format. */

describe('LoginLimiter', () => {
  it('blocks after maxFailures within the window, until the window ends; success resets', () => {
    let now = 1_000_000;
    const l = new LoginLimiter({ maxFailures: 3, windowMs: 60_000, now: () => now });
    for (let i = 0; i < 3; i++) {
      expect(l.blockedFor('a')).toBe(0);
      l.fail('a');
    }
    expect(l.blockedFor('a')).toBe(60);
    expect(l.blockedFor('b')).toBe(0);
    now += 59_001;
    expect(l.blockedFor('a')).toBe(1);
    now += 999;
    expect(l.blockedFor('a')).toBe(0);
    l.fail('a');
    l.fail('a');
    l.succeed('a');
    l.fail('a');
    expect(l.blockedFor('a')).toBe(0);
  });

  it('counts an IPv6 /64 as one peer, and every loopback address as one', () => {
    const l = new LoginLimiter({ maxFailures: 3, now: () => 0 });
    // A host that takes a fresh address in its /64 for every guess.
    l.fail('2001:db8:1:2::1');
    l.fail('2001:db8:1:2:aaaa::2');
    l.fail('2001:0db8:0001:0002:ffff:ffff:ffff:ffff');
    expect(l.blockedFor('2001:db8:1:2::77')).toBe(900);
    expect(l.blockedFor('2001:db8:1:3::1')).toBe(0);
    // 127.0.0.0/8, ::1 and the IPv4-mapped forms are one machine.
    l.fail('127.0.0.1');
    l.fail('::1');
    l.fail('::ffff:127.0.0.2');
    for (const peer of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'])
      expect(l.blockedFor(peer), peer).toBe(900);
    // An IPv4 peer counts alone, in whichever form the socket reports it.
    l.fail('::ffff:192.0.2.7');
    l.fail('192.0.2.7');
    l.fail('192.0.2.7');
    expect(l.blockedFor('192.0.2.7')).toBe(900);
    expect(l.blockedFor('192.0.2.8')).toBe(0);
    // A success anywhere in the range clears the range.
    l.succeed('2001:db8:1:2::5');
    expect(l.blockedFor('2001:db8:1:2::1')).toBe(0);
  });

  it('remembers a bounded number of peers, forgetting the oldest', () => {
    const l = new LoginLimiter({ maxFailures: 1, maxPeers: 2, now: () => 0 });
    l.fail('a');
    l.fail('b');
    l.fail('c');
    expect([l.blockedFor('a'), l.blockedFor('b') > 0, l.blockedFor('c') > 0]).toEqual([0, true, true]);
  });
});

describe('password hashes', () => {
  it('verifies what the CLI hashed, in the stored format', async () => {
    const stored = await hashPassword('right password', { ln: 10, r: 8, p: 1 });
    expect(parsePasswordHash(stored)).toMatchObject({ ln: 10, r: 8, p: 1 });
    expect(await verifyPassword(stored, 'right password')).toBe(true);
    expect(await verifyPassword(stored, 'right passwore')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('checks nothing against a string it cannot read, or one asking for absurd cost', async () => {
    for (const stored of [
      'hunter2',
      '',
      '$scrypt$ln=15,r=8,p=1$c2FsdA==',
      '$scrypt$ln=30,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA==',
      '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA',
    ]) {
      expect(parsePasswordHash(stored), stored).toBeNull();
      expect(await verifyPassword(stored, 'hunter2')).toBe(false);
    }
  });

  it('names what is wrong with a new password', () => {
    expect(passwordProblem('1234567')).toBe('the password needs at least 8 characters');
    expect(passwordProblem('12345678')).toBeNull();
    expect(passwordProblem('x'.repeat(1025))).toBe('the password may have at most 1024 characters');
  });
});
