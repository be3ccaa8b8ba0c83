import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The service files `jig admin install-service` writes: a systemd user unit on Linux, a launchd
 * agent on macOS. Both run `jig serve` with the node and the JIG_HOME of the install, and restart
 * it when it exits non-zero (which is how `POST /api/apply/restart` restarts it).
 */
export type ServicePlatform = 'linux' | 'darwin';

export const SYSTEMD_UNIT = 'jig.service';
export const LAUNCHD_LABEL = 'dev.jig.server';

export function servicePlatform(platform: string): ServicePlatform | null {
  return platform === 'linux' || platform === 'darwin' ? platform : null;
}

export function unitPath(platform: ServicePlatform, home = homedir()): string {
  return platform === 'linux'
    ? join(home, '.config', 'systemd', 'user', SYSTEMD_UNIT)
    : join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
}

/** Where the service file of this platform lives; null where Jig knows no service manager. */
export function servicePath(platform: string, home = homedir()): string | null {
  const p = servicePlatform(platform);
  return p === null ? null : unitPath(p, home);
}

export interface ServiceSpec {
  node: string;
  bin: string;
  jigHome: string;
  /** The PATH of the install, so the agent CLIs found now are found by the service too. */
  path: string;
}

// Control characters, the newline first among them: what no service file line may carry.
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The first value that cannot go into a service file, named as the user knows it, or null. A newline
 * would end the systemd line and start a directive of its own (another ExecStart=, say), and XML 1.0
 * cannot carry most control characters at all; no path or PATH needs one, so they are refused.
 */
export function unsafeServiceValue(spec: ServiceSpec): { name: string; value: string } | null {
  const named: [string, string][] = [
    ['JIG_HOME', spec.jigHome],
    ['PATH', spec.path],
    ['the node binary path', spec.node],
    ["the jig CLI's path", spec.bin],
  ];
  for (const [name, value] of named) if (CONTROL.test(value)) return { name, value };
  return null;
}

function assertSafe(spec: ServiceSpec): void {
  const bad = unsafeServiceValue(spec);
  if (bad)
    throw new Error(
      `${bad.name} holds a control character (${JSON.stringify(bad.value)}); a service file cannot carry it`,
    );
}

/**
 * One quoted systemd word (systemd.syntax): `\` and `"` escaped for the quotes, `%` doubled because
 * systemd expands specifiers in ExecStart= and Environment= alike (systemd.unit "Specifiers").
 */
function systemdQuoted(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`;
}

/** An ExecStart= word: systemd expands `$VAR` there (not in Environment=), so `$` is doubled too. */
function execWord(s: string): string {
  return systemdQuoted(s.replace(/\$/g, '$$$$'));
}

export function systemdUnit(spec: ServiceSpec): string {
  assertSafe(spec);
  const env = (k: string, v: string): string => `Environment=${systemdQuoted(`${k}=${v}`)}`;
  return [
    '# Written by `jig admin install-service`; `jig admin uninstall-service` removes it.',
    '[Unit]',
    'Description=Jig server (work items through chains of coding agents, commands and human gates)',
    'After=network.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${[spec.node, spec.bin, 'serve'].map(execWord).join(' ')}`,
    env('JIG_HOME', spec.jigHome),
    env('PATH', spec.path),
    // A restart asked through the API exits non-zero (75); a stop (SIGTERM) exits 0 and stays down.
    'Restart=on-failure',
    'RestartSec=2',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

function xml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function launchdPlist(spec: ServiceSpec): string {
  assertSafe(spec);
  const str = (s: string): string => `<string>${xml(s)}</string>`;
  const log = join(spec.jigHome, 'run', 'logs', 'service.log');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<!-- Written by `jig admin install-service`; `jig admin uninstall-service` removes it. -->',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key>${str(LAUNCHD_LABEL)}`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...[spec.node, spec.bin, 'serve'].map((a) => `    ${str(a)}`),
    '  </array>',
    '  <key>EnvironmentVariables</key>',
    '  <dict>',
    `    <key>JIG_HOME</key>${str(spec.jigHome)}`,
    `    <key>PATH</key>${str(spec.path)}`,
    // launchd sets nothing a server could tell it is supervised by.
    `    <key>JIG_SUPERVISED</key>${str('1')}`,
    '  </dict>',
    '  <key>RunAtLoad</key><true/>',
    '  <key>KeepAlive</key>',
    '  <dict><key>SuccessfulExit</key><false/></dict>',
    `  <key>StandardOutPath</key>${str(log)}`,
    `  <key>StandardErrorPath</key>${str(log)}`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

export function serviceFile(platform: ServicePlatform, spec: ServiceSpec): string {
  return platform === 'linux' ? systemdUnit(spec) : launchdPlist(spec);
}

/** The commands that load (or unload) the service, as argv lists run in order. */
export function loadCommands(platform: ServicePlatform, file: string): string[][] {
  return platform === 'linux'
    ? [
        ['systemctl', '--user', 'daemon-reload'],
        ['systemctl', '--user', 'enable', '--now', SYSTEMD_UNIT],
      ]
    : [['launchctl', 'load', '-w', file]];
}

export function unloadCommands(platform: ServicePlatform, file: string): string[][] {
  return platform === 'linux'
    ? [['systemctl', '--user', 'disable', '--now', SYSTEMD_UNIT]]
    : [['launchctl', 'unload', '-w', file]];
}

/** After the file is gone, systemd forgets the unit on a reload. */
export function afterRemoveCommands(platform: ServicePlatform): string[][] {
  return platform === 'linux' ? [['systemctl', '--user', 'daemon-reload']] : [];
}
