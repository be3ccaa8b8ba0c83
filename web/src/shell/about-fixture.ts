import type { Diagnostics, UpdateState } from './diagnostics-text.js';

/** The last update check of a server on 2.0.0 that has not asked the feed yet. */
export function anUpdate(over: Partial<UpdateState> = {}): UpdateState {
  return {
    package: 'jig',
    running: '2.0.0',
    installed: '2.0.0',
    channel: 'stable',
    feed: 'https://registry.npmjs.org/jig',
    checked_at: null,
    latest: null,
    update_available: false,
    dist_tags: {},
    apply: null,
    ...over,
  };
}

/** A SQLite server's diagnostics, as the route `getDiagnostics` answers them. */
export function aDiagnostics(over: Partial<Diagnostics> = {}): Diagnostics {
  return {
    version: '2.0.0',
    installed: '2.0.0',
    node: 'v20.19.0',
    platform: 'linux x64',
    os_release: '6.1.0-18-amd64',
    home: '/home/ada/.jig',
    config_dir: '/home/ada/.jig/config',
    store: { kind: 'sqlite', location: '/home/ada/.jig/run/jig.db', schema_version: 31 },
    server: {
      role: 'serve',
      bind: '127.0.0.1',
      port: 8765,
      pid: 4242,
      uptime_s: 3725,
      supervised: false,
      password_set: true,
      allowed_hosts: [],
    },
    health: { status: 'ok', problems: [], intake_off: false },
    update: anUpdate(),
    harnesses: [
      {
        id: 'claude',
        provider: 'claude-code',
        enabled: true,
        installed: true,
        version: '2.1.3 (Claude Code)',
      },
      { id: 'codex', provider: 'codex', enabled: false, installed: false, version: null },
    ],
    counts: {
      items: { completed: 12, running: 1 },
      archived: 4,
      repos: 2,
      workspaces: 0,
      addons: 1,
      workers: 1,
    },
    index: { last_scan_at: null, repos_scanned: 0, documents: 57, embeddings: 'off' },
    ...over,
  };
}
