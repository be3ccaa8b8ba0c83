import { describe, expect, it } from 'vitest';
import { authorityIn, crossOriginReason, webOrigin } from './origin.js';

describe('webOrigin', () => {
  it.each([
    ['http://localhost:3000', { scheme: 'http:', authority: 'localhost:3000', endpoint: 'localhost:3000' }],
    ['http://LocalHost:80', { scheme: 'http:', authority: 'localhost', endpoint: 'localhost:80' }],
    [
      'https://jig.example:443/board?x#y',
      { scheme: 'https:', authority: 'jig.example', endpoint: 'jig.example:443' },
    ],
    ['https://jig.example:80', { scheme: 'https:', authority: 'jig.example:80', endpoint: 'jig.example:80' }],
    ['http://[::1]:8765', { scheme: 'http:', authority: '[::1]:8765', endpoint: '[::1]:8765' }],
    [
      'http://user:pw@jig.example:8765/',
      { scheme: 'http:', authority: 'jig.example:8765', endpoint: 'jig.example:8765' },
    ],
    ['null', null],
    ['', null],
    ['file:///etc/passwd', null],
    ['chrome-extension://abcdef', null],
    ['ws://localhost:8765', null],
    ['http://', null],
  ])('%j -> %j', (value, want) => {
    expect(webOrigin(value)).toEqual(want);
  });
});

describe('authorityIn', () => {
  it.each([
    ['http:', 'localhost:8765', 'localhost:8765'],
    ['http:', 'LOCALHOST:80', 'localhost'],
    ['https:', 'localhost:80', 'localhost:80'],
    ['https:', 'jig.example:443', 'jig.example'],
    ['https:', 'jig.example', 'jig.example'],
    ['http:', '[::1]:8765', '[::1]:8765'],
    ['http:', ' jig.example ', 'jig.example'],
    ['http:', '', null],
    ['http:', 'evil.example@localhost', null],
    ['http:', 'localhost/path', null],
    ['http:', 'localhost:8765?x', null],
    ['http:', 'local host', null],
    ['http:', 'localhost:99999', null],
  ] as const)('%s %j -> %j', (scheme, host, want) => {
    expect(authorityIn(scheme, host)).toBe(want);
  });
});

describe('crossOriginReason', () => {
  const own = { host: 'localhost:8765', allowedHosts: [] };
  it.each([
    // Nothing says where it comes from: not a browser's write, nothing to compare.
    [{}, null],
    [{ referer: '' }, null],
    // Jig's own origin, in either scheme (a TLS proxy makes the browser's https).
    [{ origin: 'http://localhost:8765' }, null],
    [{ origin: 'https://localhost:8765' }, null],
    [{ origin: 'http://LOCALHOST:8765' }, null],
    [{ referer: 'http://localhost:8765/board?x=1' }, null],
    [{ origin: 'http://localhost:8765', 'sec-fetch-site': 'same-origin' }, null],
    [{ origin: 'http://localhost:8765', 'sec-fetch-site': 'none' }, null],
    // Another port on the same name is another origin.
    [{ origin: 'http://localhost:3000' }, 'Origin is localhost:3000, not localhost:8765'],
    [{ origin: 'http://localhost' }, 'Origin is localhost, not localhost:8765'],
    [{ referer: 'http://localhost:3000/page' }, 'Referer is localhost:3000, not localhost:8765'],
    [{ origin: 'http://127.0.0.1:8765' }, 'Origin is 127.0.0.1:8765, not localhost:8765'],
    [{ origin: 'http://evil.example' }, 'Origin is evil.example, not localhost:8765'],
    // The Origin decides when both are sent.
    [
      { origin: 'http://localhost:3000', referer: 'http://localhost:8765/' },
      'Origin is localhost:3000, not localhost:8765',
    ],
    [{ origin: 'http://localhost:8765', referer: 'http://localhost:3000/' }, null],
    // Not an http(s) origin at all.
    [{ origin: 'null' }, 'Origin "null" is not an http or https origin'],
    [{ origin: '' }, 'Origin "" is not an http or https origin'],
    [{ origin: 'file://' }, 'Origin "file://" is not an http or https origin'],
    [{ referer: 'about:blank' }, 'Referer "about:blank" is not an http or https origin'],
    // Fetch Metadata: same-site is another port or subdomain, not Jig.
    [{ 'sec-fetch-site': 'same-site' }, 'Sec-Fetch-Site is same-site'],
    [{ 'sec-fetch-site': 'cross-site' }, 'Sec-Fetch-Site is cross-site'],
    [{ 'sec-fetch-site': 'Same-Site', origin: 'http://localhost:8765' }, 'Sec-Fetch-Site is same-site'],
    [{ 'sec-fetch-site': 'bogus' }, 'Sec-Fetch-Site is bogus'],
  ])('%j -> %j', (headers, want) => {
    expect(crossOriginReason(headers, own)).toBe(want);
  });

  it('reads a port-less Host as port 80, since Jig speaks http: https on 443 is another server', () => {
    const bare = { host: 'devbox', allowedHosts: [] };
    expect(crossOriginReason({ origin: 'http://devbox' }, bare)).toBeNull();
    expect(crossOriginReason({ origin: 'http://devbox:80' }, bare)).toBeNull();
    expect(crossOriginReason({ origin: 'https://devbox' }, bare)).toBe('Origin is devbox:443, not devbox:80');
    expect(crossOriginReason({ origin: 'https://devbox:8443' }, bare)).toBe(
      'Origin is devbox:8443, not devbox',
    );
    expect(crossOriginReason({ origin: 'https://devbox:80' }, bare)).toBeNull();
    expect(
      crossOriginReason({ origin: 'https://jig.example' }, { host: 'jig.example:443', allowedHosts: [] }),
    ).toBeNull();
    expect(
      crossOriginReason({ origin: 'http://jig.example' }, { host: 'jig.example:443', allowedHosts: [] }),
    ).toBe('Origin is jig.example, not jig.example:443');
    // Behind a TLS proxy the public name is Jig's origin through allowed_hosts (it must be listed
    // off loopback anyway), where a port-less entry is the browser's scheme's default port.
    expect(
      crossOriginReason(
        { origin: 'https://jig.example' },
        { host: 'jig.example', allowedHosts: ['jig.example'] },
      ),
    ).toBeNull();
  });

  it('takes an allowed_hosts entry as Jig origin too, port included; a port-less one is the default port', () => {
    // A proxy that rewrites the Host: Jig sees 127.0.0.1, the browser is at the public name.
    const proxied = { host: '127.0.0.1:8765', allowedHosts: ['jig.example', 'ops.example:8443'] };
    expect(crossOriginReason({ origin: 'https://jig.example' }, proxied)).toBeNull();
    expect(crossOriginReason({ origin: 'http://jig.example' }, proxied)).toBeNull();
    expect(crossOriginReason({ origin: 'https://ops.example:8443' }, proxied)).toBeNull();
    expect(crossOriginReason({ origin: 'http://jig.example:3000' }, proxied)).toBe(
      'Origin is jig.example:3000, not 127.0.0.1:8765 or an allowed_hosts entry',
    );
    expect(crossOriginReason({ origin: 'https://ops.example' }, proxied)).toBe(
      'Origin is ops.example, not 127.0.0.1:8765 or an allowed_hosts entry',
    );
    expect(crossOriginReason({ origin: 'https://a.jig.example' }, proxied)).toBe(
      'Origin is a.jig.example, not 127.0.0.1:8765 or an allowed_hosts entry',
    );
  });

  it('says "the Host" when there is none to compare with', () => {
    expect(
      crossOriginReason({ origin: 'http://localhost:8765' }, { host: undefined, allowedHosts: [] }),
    ).toBe('Origin is localhost:8765, not the Host');
    expect(crossOriginReason({ origin: 'http://localhost:8765' }, { host: '', allowedHosts: [] })).toBe(
      'Origin is localhost:8765, not the Host',
    );
  });
});
