import { describe, expect, it } from 'vitest';
import { exposureOf } from './exposure.js';

const OPEN = { password_hash: null, allowed_hosts: [] as string[] };

describe('exposureOf', () => {
  it('says nothing for a loopback address', () => {
    for (const bind of ['127.0.0.1', '127.0.0.2', '::1', 'localhost'])
      expect(exposureOf(bind, OPEN)).toEqual({ offLoopback: false, warnings: [] });
  });

  it('off loopback, warns for each of a missing password and an empty allowed_hosts', () => {
    expect(exposureOf('0.0.0.0', OPEN).warnings).toHaveLength(2);
    expect(exposureOf('::', { password_hash: '$scrypt$x', allowed_hosts: [] })).toEqual({
      offLoopback: true,
      warnings: [
        'allowed_hosts in access.yaml is empty, so browsers reach the board only by a loopback name; list the name they use (for example `allowed_hosts: [jig.example.com]`)',
      ],
    });
    expect(exposureOf('192.168.1.5', { password_hash: '$scrypt$x', allowed_hosts: ['jig.lan'] })).toEqual({
      offLoopback: true,
      warnings: [],
    });
  });
});
