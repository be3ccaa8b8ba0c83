import type { AnswerOf } from '../api.js';

export type Diagnostics = AnswerOf<'getDiagnostics'>;
export type UpdateState = AnswerOf<'getUpdate'>;

/** Uptime as a person reads it: `3d 4h`, `2h 5m`, `42s`. */
export function uptime(s: number): string {
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${Math.floor(s % 60)}s`;
  return `${Math.floor(s)}s`;
}

/** The store in one line: `sqlite /home/me/.jig/run/jig.db`, `postgres postgres://jig@db/jig`. */
export const storeLine = (d: Diagnostics): string => `${d.store.kind} ${d.store.location}`;

/** What the last update check found, in words (About shows it; the diagnostics carry it). */
export function updateLine(u: UpdateState): string {
  if (u.checked_at === null) return 'not checked yet';
  if (u.latest === null) return `the ${u.channel} channel has no release (checked ${u.checked_at})`;
  if (u.update_available) return `${u.latest} available on ${u.channel} (checked ${u.checked_at})`;
  return `up to date on ${u.channel}, newest ${u.latest} (checked ${u.checked_at})`;
}

/**
 * The block "Copy diagnostics" puts on the clipboard, for a bug report. Everything in it comes from
 * the diagnostics answer, which holds no credential (the server strips them: src/contract/
 * diagnostics.ts), and from this browser's user agent; the board adds nothing it was typed.
 */
export function diagnosticsText(d: Diagnostics, update: UpdateState, browser: string, at: string): string {
  const items = Object.entries(d.counts.items)
    .map(([status, n]) => `${status} ${n}`)
    .join(', ');
  const harnesses = d.harnesses
    .map(
      (h) =>
        `${h.id} (${h.provider}${h.enabled ? '' : ', disabled'}): ${
          h.installed ? (h.version ?? 'installed, no version') : 'not installed'
        }`,
    )
    .join('; ');
  const rows: [string, string][] = [
    ['version', d.version === d.installed ? d.version : `${d.version} (installed ${d.installed})`],
    ['node', d.node],
    ['platform', `${d.platform} (${d.os_release})`],
    ['home', d.home],
    ['config', d.config_dir],
    ['store', `${storeLine(d)} (schema ${d.store.schema_version})`],
    [
      'server',
      `${d.server.role} on ${d.server.bind}:${d.server.port}, pid ${d.server.pid}, up ${uptime(d.server.uptime_s)}${
        d.server.supervised ? ', supervised' : ''
      }`,
    ],
    [
      'access',
      `password ${d.server.password_set ? 'set' : 'not set'}; allowed hosts: ${
        d.server.allowed_hosts.join(', ') || 'none'
      }`,
    ],
    [
      'health',
      [d.health.status, ...d.health.problems].join('; ') + (d.health.intake_off ? '; intake off' : ''),
    ],
    ['update', updateLine(update)],
    ['harnesses', harnesses || 'none'],
    ['items', `${items || 'none'} (archived ${d.counts.archived})`],
    [
      'repos',
      `${d.counts.repos}, workspaces ${d.counts.workspaces}, add-ons ${d.counts.addons}, workers ${d.counts.workers}`,
    ],
    ['search', `${d.index.documents} documents, embeddings ${d.index.embeddings}`],
    ['browser', browser],
    ['collected', at],
  ];
  const width = Math.max(...rows.map(([k]) => k.length)) + 3;
  return ['Jig diagnostics', ...rows.map(([k, v]) => `${`${k}:`.padEnd(width)}${v}`)].join('\n') + '\n';
}
