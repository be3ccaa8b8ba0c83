import { describe, expect, it } from 'vitest';
import { decide, type PerimeterHeaders, type PerimeterInput, type PresentedCredentials } from './decide.js';

/** The spec's Authentication rules as a table over the pure decision. */

const NONE: PresentedCredentials = { bearer: null, session: null };
const MCP: PresentedCredentials = { bearer: 'mcp', session: null };
const TRIGGER: PresentedCredentials = { bearer: 'trigger', session: null };
const BAD_BEARER: PresentedCredentials = { bearer: 'invalid', session: null };
const SESSION: PresentedCredentials = { bearer: null, session: 'valid' };
const EXPIRED: PresentedCredentials = { bearer: null, session: 'expired' };
const BAD_SESSION: PresentedCredentials = { bearer: null, session: 'invalid' };

const HTML = 'text/html,application/xhtml+xml,*/*;q=0.8';
const LOCAL_PEER = '127.0.0.1';
const REMOTE_PEER = '192.0.2.7';

function input(over: Partial<PerimeterInput> & { headers?: PerimeterHeaders }): PerimeterInput {
  return {
    bind: '127.0.0.1',
    allowedHosts: [],
    passwordSet: false,
    peer: LOCAL_PEER,
    method: 'GET',
    path: '/api/work-items',
    credentials: NONE,
    ...over,
    headers: { host: '127.0.0.1:8765', ...over.headers },
  };
}

/** `allow:<caller>` or `<status> <code>` (+ ` html` when the refusal is a page). */
function outcome(i: PerimeterInput): string {
  const d = decide(i);
  if (d.allow) return `allow:${d.caller}`;
  return `${d.status} ${d.code}${d.html ? ' html' : ''}`;
}

const LOOPBACK_BINDS = ['127.0.0.1', '::1', 'localhost', '127.0.0.2'];
const NETWORK_BINDS = ['0.0.0.0', '::', '192.0.2.2'];
const LOOPBACK_HOSTS = [
  '127.0.0.1:8765',
  'localhost:8765',
  '[::1]:8765',
  'localhost',
  'LOCALHOST:1',
  '[::1]',
];
const OTHER_HOSTS = ['jig.example:8765', 'evil.example', '127.0.0.2:8765', '10.0.0.5:8765', '', 'localhost.'];
const ROUTES: Array<[string, string, string]> = [
  // [method, path, class]
  ['GET', '/api/health', 'open'],
  ['GET', '/openapi.json', 'open'],
  ['GET', '/docs', 'open'],
  ['GET', '/docs/init.js', 'open'],
  ['GET', '/redoc', 'open'],
  ['GET', '/login', 'login'],
  ['POST', '/api/auth/login', 'login'],
  ['POST', '/api/auth/logout', 'login'],
  ['POST', '/api/triggers', 'trigger'],
  ['GET', '/api/work-items', 'guarded'],
  ['POST', '/api/apply/reload', 'guarded'],
  ['GET', '/', 'guarded'],
  ['GET', '/api/ws/events', 'guarded'],
];
const ALL_CREDENTIALS = [NONE, MCP, TRIGGER, BAD_BEARER, SESSION, EXPIRED, BAD_SESSION];

describe('loopback bind: the Host must be a loopback name, and then nothing else is needed', () => {
  it('refuses every other Host on every route, whatever the credentials (webhooks and health included)', () => {
    for (const bind of LOOPBACK_BINDS)
      for (const host of OTHER_HOSTS)
        for (const [method, path] of ROUTES)
          for (const credentials of ALL_CREDENTIALS) {
            const d = decide(input({ bind, method, path, credentials, headers: { host } }));
            expect(d, `${bind} ${host} ${method} ${path}`).toMatchObject({
              allow: false,
              status: 403,
              code: 'host_not_allowed',
              params: { bind },
              extra: { host },
            });
          }
  });

  it('ignores allowed_hosts on a loopback bind', () => {
    expect(outcome(input({ allowedHosts: ['jig.example'], headers: { host: 'jig.example' } }))).toBe(
      '403 host_not_allowed',
    );
  });

  it('lets any caller through by a loopback name, with no credentials', () => {
    for (const bind of LOOPBACK_BINDS)
      for (const host of LOOPBACK_HOSTS)
        for (const [method, path, cls] of ROUTES) {
          const got = outcome(input({ bind, method, path, headers: { host } }));
          expect(got, `${bind} ${host} ${method} ${path}`).toBe(
            cls === 'open' ? 'allow:open' : 'allow:loopback',
          );
        }
  });

  it('answers a browser GET outside /api with an HTML page, and /api with JSON', () => {
    expect(outcome(input({ path: '/', headers: { host: 'evil.example', accept: HTML } }))).toBe(
      '403 host_not_allowed html',
    );
    expect(outcome(input({ path: '/api/health', headers: { host: 'evil.example', accept: HTML } }))).toBe(
      '403 host_not_allowed',
    );
    expect(
      outcome(input({ method: 'POST', path: '/login', headers: { host: 'evil.example', accept: HTML } })),
    ).toBe('403 host_not_allowed');
  });
});

describe('cross-site writes are refused on every bind', () => {
  const rows: Array<[string, PerimeterHeaders, string]> = [
    ['POST', { 'sec-fetch-site': 'cross-site' }, '403 cross_site_write'],
    ['POST', { origin: 'http://evil.example' }, '403 cross_site_write'],
    ['POST', { origin: 'null' }, '403 cross_site_write'],
    ['POST', { referer: 'http://evil.example/page' }, '403 cross_site_write'],
    ['PUT', { origin: 'https://evil.example' }, '403 cross_site_write'],
    ['PATCH', { origin: 'http://evil.example' }, '403 cross_site_write'],
    ['DELETE', { origin: 'http://evil.example' }, '403 cross_site_write'],
    // Jig's own origin: the Origin's host and port are the request's Host (either scheme: a TLS
    // proxy makes the browser's https while Jig speaks http).
    ['POST', { origin: 'http://127.0.0.1:8765' }, 'allow:loopback'],
    ['POST', { origin: 'https://127.0.0.1:8765' }, 'allow:loopback'],
    ['POST', { referer: 'http://127.0.0.1:8765/board' }, 'allow:loopback'],
    ['POST', { 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:8765' }, 'allow:loopback'],
    ['POST', { 'sec-fetch-site': 'none', origin: 'http://127.0.0.1:8765' }, 'allow:loopback'],
    // Another port, or another loopback name, is another origin to a browser.
    ['POST', { origin: 'https://127.0.0.1' }, '403 cross_site_write'],
    ['POST', { origin: 'http://127.0.0.1:3000' }, '403 cross_site_write'],
    ['POST', { referer: 'http://127.0.0.1:3000/page' }, '403 cross_site_write'],
    ['POST', { origin: 'http://localhost:8765' }, '403 cross_site_write'],
    // same-site is another port or subdomain: not enough, even beside Jig's own Origin.
    ['POST', { 'sec-fetch-site': 'same-site' }, '403 cross_site_write'],
    ['POST', { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:8765' }, '403 cross_site_write'],
    // Reads are not writes.
    ['GET', { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }, 'allow:loopback'],
    ['HEAD', { referer: 'http://evil.example/' }, 'allow:loopback'],
    ['OPTIONS', { origin: 'http://evil.example' }, 'allow:loopback'],
    // The WebSocket handshake from another site is refused the same way.
    ['GET', { upgrade: 'websocket', origin: 'http://evil.example' }, '403 cross_site_write'],
    ['GET', { upgrade: 'websocket', origin: 'http://127.0.0.1:3000' }, '403 cross_site_write'],
    ['GET', { upgrade: 'websocket', origin: 'null' }, '403 cross_site_write'],
    ['GET', { upgrade: 'websocket', 'sec-fetch-site': 'same-site' }, '403 cross_site_write'],
    ['GET', { upgrade: 'WebSocket', origin: 'http://localhost:8765' }, '403 cross_site_write'],
    ['GET', { upgrade: 'websocket', origin: 'http://127.0.0.1:8765' }, 'allow:loopback'],
    ['GET', { upgrade: 'websocket' }, 'allow:loopback'],
  ];
  it.each(rows)('%s %j -> %s (loopback bind)', (method, headers, expected) => {
    expect(outcome(input({ method, path: '/api/apply/reload', headers }))).toBe(expected);
  });

  it('refuses them off loopback too, even with the MCP token, on open and login routes alike', () => {
    for (const path of ['/api/apply/reload', '/api/auth/login', '/api/triggers', '/api/health'])
      expect(
        outcome(
          input({
            bind: '0.0.0.0',
            passwordSet: true,
            method: 'POST',
            path,
            credentials: MCP,
            headers: { origin: 'http://evil.example' },
          }),
        ),
      ).toBe('403 cross_site_write');
  });

  it('names the reason', () => {
    expect(decide(input({ method: 'POST', headers: { origin: 'http://evil.example' } }))).toMatchObject({
      params: { reason: 'Origin is evil.example, not 127.0.0.1:8765' },
    });
    expect(decide(input({ method: 'POST', headers: { origin: 'http://127.0.0.1:3000' } }))).toMatchObject({
      params: { reason: 'Origin is 127.0.0.1:3000, not 127.0.0.1:8765' },
    });
    expect(decide(input({ method: 'POST', headers: { origin: 'null' } }))).toMatchObject({
      params: { reason: 'Origin "null" is not an http or https origin' },
    });
    expect(decide(input({ method: 'POST', headers: { 'sec-fetch-site': 'same-site' } }))).toMatchObject({
      params: { reason: 'Sec-Fetch-Site is same-site' },
    });
  });
});

describe("writes and handshakes must come from Jig's own origin: Host x Origin x credentials x bind", () => {
  // A body-less POST is all a page needs to cancel, resume or approve.
  const WRITES: Array<[string, string, PerimeterHeaders]> = [
    ['POST', '/api/work-items/:id/cancel', {}],
    ['POST', '/api/work-items/:id/resume', {}],
    ['POST', '/api/work-items/:id/gates/:gate/approve', {}],
    ['PUT', '/api/policy', {}],
    ['DELETE', '/api/repos', {}],
    ['POST', '/api/triggers', {}],
    ['POST', '/api/auth/login', {}],
    ['GET', '/api/ws/events', { upgrade: 'websocket' }],
  ];
  // [bind, allowed_hosts, the Host the browser sent, origins that are Jig's, origins that are not]
  const SITES: Array<[string, string[], string, string[], string[]]> = [
    [
      '127.0.0.1',
      ['jig.example'],
      'localhost:8765',
      ['http://localhost:8765', 'https://localhost:8765', 'http://LOCALHOST:8765'],
      [
        'http://localhost:3000',
        'http://localhost',
        'https://localhost',
        'http://127.0.0.1:8765',
        'http://[::1]:8765',
        // allowed_hosts does not apply on a loopback bind.
        'https://jig.example',
        'null',
        'file://',
      ],
    ],
    [
      '::1',
      [],
      '[::1]:8765',
      ['http://[::1]:8765', 'https://[0:0::1]:8765'],
      ['http://[::1]:3000', 'http://localhost:8765'],
    ],
    [
      '0.0.0.0',
      ['jig.example', 'ops.example:8443'],
      'jig.example',
      ['https://jig.example', 'http://jig.example', 'https://jig.example:443', 'https://ops.example:8443'],
      [
        'https://jig.example:3000',
        'http://jig.example:8765',
        'https://ops.example',
        'https://www.jig.example',
        'http://localhost:8765',
        'null',
      ],
    ],
    [
      '0.0.0.0',
      ['jig.example'],
      '127.0.0.1:8765',
      // A proxy that rewrites the Host: the browser's origin is an allowed_hosts entry.
      ['http://127.0.0.1:8765', 'https://jig.example'],
      ['https://jig.example:8443', 'http://127.0.0.1:3000', 'http://localhost:8765'],
    ],
  ];
  const CREDENTIALS = [NONE, MCP, SESSION, TRIGGER];

  const at = (
    bind: string,
    allowedHosts: string[],
    host: string,
    method: string,
    path: string,
    credentials: PresentedCredentials,
    headers: PerimeterHeaders,
  ): PerimeterInput =>
    input({
      bind,
      allowedHosts,
      passwordSet: true,
      method,
      path,
      credentials,
      headers: { host, ...headers },
    });

  it('refuses every other origin, same-site and null included, whatever the credentials', () => {
    for (const [bind, allowedHosts, host, , others] of SITES)
      for (const [method, path, extra] of WRITES)
        for (const credentials of CREDENTIALS) {
          const cells: PerimeterHeaders[] = [
            ...others.map((origin) => ({ origin })),
            ...others.filter((o) => o !== 'null').map((o) => ({ referer: `${o}/page` })),
            { 'sec-fetch-site': 'same-site' },
            { 'sec-fetch-site': 'cross-site' },
          ];
          for (const headers of cells) {
            const got = outcome(
              at(bind, allowedHosts, host, method, path, credentials, { ...extra, ...headers }),
            );
            expect(got, `${bind} ${host} ${method} ${path} ${JSON.stringify(headers)}`).toBe(
              '403 cross_site_write',
            );
          }
        }
  });

  it('lets its own origin through to the same decision as a caller that sends no Origin', () => {
    for (const [bind, allowedHosts, host, own] of SITES)
      for (const [method, path, extra] of WRITES)
        for (const credentials of CREDENTIALS) {
          const bare = outcome(at(bind, allowedHosts, host, method, path, credentials, extra));
          expect(bare).not.toBe('403 cross_site_write');
          const cells: PerimeterHeaders[] = own.flatMap((origin) => [
            { origin },
            { referer: `${origin}/board` },
            { origin, 'sec-fetch-site': 'same-origin' },
            { origin, 'sec-fetch-site': 'none' },
          ]);
          for (const headers of cells) {
            const got = outcome(
              at(bind, allowedHosts, host, method, path, credentials, { ...extra, ...headers }),
            );
            expect(got, `${bind} ${host} ${method} ${path} ${JSON.stringify(headers)}`).toBe(bare);
          }
        }
  });

  it('still lets reads from another origin through (a read answers only to its own page)', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS'])
      expect(
        outcome(
          input({
            method,
            path: '/api/work-items/:id',
            headers: {
              host: 'localhost:8765',
              origin: 'http://localhost:3000',
              'sec-fetch-site': 'same-site',
            },
          }),
        ),
      ).toBe('allow:loopback');
  });
});

describe('network bind: Host rules apply to browsers only', () => {
  const browsers: PerimeterHeaders[] = [
    { accept: HTML },
    { 'sec-fetch-site': 'none' },
    { origin: 'http://jig.example' },
    { referer: 'http://jig.example/' },
  ];
  it('refuses a browser whose Host is neither loopback nor allowed, on every route and credential', () => {
    for (const bind of NETWORK_BINDS)
      for (const extra of browsers)
        for (const [method, path] of ROUTES)
          for (const credentials of ALL_CREDENTIALS) {
            const i = input({
              bind,
              passwordSet: true,
              allowedHosts: ['other.example'],
              method,
              path,
              credentials,
              headers: { host: 'jig.example:8765', ...extra },
            });
            expect(decide(i), `${bind} ${JSON.stringify(extra)} ${method} ${path}`).toMatchObject({
              allow: false,
              code: 'host_not_allowed',
            });
          }
  });

  it('lets a browser through when the Host is allowed (exact, without the port) or a loopback name', () => {
    for (const host of ['jig.example:8765', 'JIG.example', 'localhost:9', '[::1]:8765'])
      expect(
        outcome(
          input({
            bind: '0.0.0.0',
            passwordSet: true,
            allowedHosts: ['jig.example:1234'],
            credentials: SESSION,
            headers: { host, accept: HTML },
          }),
        ),
        host,
      ).toBe('allow:session');
  });

  it('matches allowed_hosts exactly: no wildcards, no subdomains', () => {
    for (const [allowed, host] of [
      ['*.example', 'jig.example'],
      ['example', 'jig.example'],
      ['jig.example', 'a.jig.example'],
    ])
      expect(
        outcome(
          input({
            bind: '0.0.0.0',
            allowedHosts: [allowed!],
            credentials: MCP,
            headers: { host, origin: `http://${host}` },
          }),
        ),
      ).toBe('403 host_not_allowed');
  });

  it('does not check the Host of the CLI, MCP or curl (no browser headers)', () => {
    for (const host of OTHER_HOSTS)
      expect(outcome(input({ bind: '0.0.0.0', credentials: MCP, headers: { host, accept: '*/*' } }))).toBe(
        'allow:mcp',
      );
  });
});

describe('network bind: credentials', () => {
  const net = (over: Partial<PerimeterInput>): PerimeterInput =>
    input({ bind: '0.0.0.0', passwordSet: true, ...over });

  it.each([
    // [method, path, credentials, expected]
    ['GET', '/api/work-items', NONE, '401 login_required'],
    ['GET', '/api/work-items', MCP, 'allow:mcp'],
    ['GET', '/api/work-items', SESSION, 'allow:session'],
    ['GET', '/api/work-items', TRIGGER, '401 login_required'],
    ['GET', '/api/work-items', BAD_BEARER, '401 login_required'],
    ['GET', '/api/work-items', EXPIRED, '401 login_required'],
    ['GET', '/api/work-items', BAD_SESSION, '401 login_required'],
    ['POST', '/api/apply/reload', TRIGGER, '401 login_required'],
    ['POST', '/api/triggers', TRIGGER, 'allow:trigger'],
    ['POST', '/api/triggers', MCP, 'allow:mcp'],
    ['POST', '/api/triggers', SESSION, 'allow:session'],
    ['POST', '/api/triggers', NONE, '401 login_required'],
    ['POST', '/api/triggers', BAD_BEARER, '401 login_required'],
    ['GET', '/api/triggers', TRIGGER, '401 login_required'],
    ['GET', '/api/health', NONE, 'allow:open'],
    ['GET', '/openapi.json', BAD_BEARER, 'allow:open'],
    ['GET', '/docs', NONE, 'allow:open'],
    ['GET', '/redoc', NONE, 'allow:open'],
    ['GET', '/login', NONE, 'allow:login'],
    ['POST', '/api/auth/login', NONE, 'allow:login'],
    ['POST', '/api/auth/logout', EXPIRED, 'allow:login'],
    ['GET', '/api/ws/events', NONE, '401 login_required'],
    ['GET', '/api/ws/events', SESSION, 'allow:session'],
    ['GET', '/no/such/route', NONE, '401 login_required'],
    // A valid credential wins over a wrong one sent alongside it.
    ['GET', '/api/work-items', { bearer: 'invalid', session: 'valid' }, 'allow:session'],
    ['GET', '/api/work-items', { bearer: 'mcp', session: 'expired' }, 'allow:mcp'],
    ['POST', '/api/triggers', { bearer: 'trigger', session: 'invalid' }, 'allow:trigger'],
  ] as const)('%s %s %j -> %s', (method, path, credentials, expected) => {
    expect(outcome(net({ method, path, credentials }))).toBe(expected);
    // The same holds for a remote peer once a password is set.
    expect(outcome(net({ method, path, credentials, peer: REMOTE_PEER }))).toBe(expected);
  });

  it('tells why a credential did not do', () => {
    const reason = (credentials: PresentedCredentials): unknown =>
      (decide(net({ credentials })) as { params: unknown }).params;
    expect(reason(NONE)).toEqual({
      reason: 'log in at /login, or send the MCP token (run/mcp-token) as Authorization: Bearer <token>',
    });
    expect(reason(TRIGGER)).toEqual({ reason: 'the trigger token is valid on POST /api/triggers only' });
    expect(reason(BAD_BEARER)).toEqual({
      reason: 'the bearer token is not valid (it may have been rotated)',
    });
    expect(reason(EXPIRED)).toEqual({ reason: 'the session has expired; log in again at /login' });
    expect(reason(BAD_SESSION)).toEqual({ reason: 'the session is not valid; log in again at /login' });
  });

  it('answers a browser page with the login page (401 html), and an API call with JSON', () => {
    expect(outcome(net({ path: '/', headers: { accept: HTML } }))).toBe('401 login_required html');
    expect(outcome(net({ path: '/api/work-items', headers: { accept: HTML } }))).toBe('401 login_required');
    expect(outcome(net({ path: '/', headers: { accept: 'application/json' } }))).toBe('401 login_required');
  });

  it('needs credentials from a loopback peer too, but then not a password', () => {
    expect(outcome(net({ passwordSet: false, credentials: NONE }))).toBe('401 login_required');
    expect(outcome(net({ passwordSet: false, credentials: MCP }))).toBe('allow:mcp');
    expect(outcome(net({ passwordSet: false, peer: '::1', credentials: MCP }))).toBe('allow:mcp');
    expect(outcome(net({ passwordSet: false, peer: '::ffff:127.0.0.1', credentials: MCP }))).toBe(
      'allow:mcp',
    );
  });
});

describe('network bind, remote peer, no password: nothing but the open routes works', () => {
  it('answers 403 on every route but the open ones, whatever the credentials', () => {
    for (const peer of [REMOTE_PEER, '::ffff:192.0.2.7', 'fd00::7', ''])
      for (const [method, path, cls] of ROUTES)
        for (const credentials of ALL_CREDENTIALS) {
          const got = outcome(input({ bind: '0.0.0.0', peer, method, path, credentials }));
          expect(got, `${peer} ${method} ${path}`).toBe(
            cls === 'open' ? 'allow:open' : '403 remote_needs_password',
          );
        }
  });

  it('answers a browser page with an HTML 403', () => {
    expect(outcome(input({ bind: '0.0.0.0', peer: REMOTE_PEER, path: '/', headers: { accept: HTML } }))).toBe(
      '403 remote_needs_password html',
    );
  });
});
