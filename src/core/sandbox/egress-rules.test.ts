import { describe, expect, it } from 'vitest';
import { addressNamed, egressVerdict, parseEgressEntry } from './egress-rules.js';

describe('egress lists', () => {
  it('reads host, host:port, *.domain and bracketed addresses; refuses what names no host', () => {
    expect(parseEgressEntry('API.Example.com.')).toEqual({
      host: 'api.example.com',
      wildcard: false,
      port: null,
    });
    expect(parseEgressEntry('example.com:8443')).toEqual({
      host: 'example.com',
      wildcard: false,
      port: 8443,
    });
    expect(parseEgressEntry('*.githubusercontent.com')).toEqual({
      host: 'githubusercontent.com',
      wildcard: true,
      port: null,
    });
    expect(parseEgressEntry('[::1]:8080')).toEqual({ host: '::1', wildcard: false, port: 8080 });
    for (const bad of ['', 'host:0', 'host:70000', 'host:http', 'a b', 'http://x', '*', 'user@host'])
      expect(parseEgressEntry(bad), bad).toBeNull();
  });

  it('a bare host allows the web ports only; a port names one; a wildcard covers names below, not itself', () => {
    const lists = { allow: ['example.com', 'db.internal:5432', '*.pkg.dev'], deny: [] };
    expect(egressVerdict(lists, 'example.com', 443)).toEqual({ ok: true });
    expect(egressVerdict(lists, 'EXAMPLE.com.', 80)).toEqual({ ok: true });
    expect(egressVerdict(lists, 'example.com', 22).ok).toBe(false);
    expect(egressVerdict(lists, 'db.internal', 5432)).toEqual({ ok: true });
    expect(egressVerdict(lists, 'db.internal', 443).ok).toBe(false);
    expect(egressVerdict(lists, 'us.pkg.dev', 443)).toEqual({ ok: true });
    expect(egressVerdict(lists, 'pkg.dev', 443)).toEqual({
      ok: false,
      reason: 'not in the sandbox network allow list',
    });
    expect(egressVerdict(lists, 'evilpkg.dev', 443).ok).toBe(false);
  });

  it('deny wins over allow', () => {
    const lists = { allow: ['*.example.com'], deny: ['secret.example.com'] };
    expect(egressVerdict(lists, 'secret.example.com', 443)).toEqual({
      ok: false,
      reason: 'denied by the sandbox network deny list',
    });
    expect(egressVerdict(lists, 'www.example.com', 443)).toEqual({ ok: true });
  });

  it('an internal address is reachable only when an allow entry names it with its port', () => {
    const lists = { allow: ['127.0.0.1:8080', '[::1]:9000', 'localhost:8080', '10.0.0.0'], deny: [] };
    expect(addressNamed(lists, '127.0.0.1', 8080)).toBe(true);
    expect(addressNamed(lists, '127.0.0.1', 8081)).toBe(false);
    expect(addressNamed(lists, '::1', 9000)).toBe(true);
    // A name (even one that resolves there) and an entry without a port do not count.
    expect(addressNamed(lists, '10.0.0.0', 443)).toBe(false);
  });
});
