import { describe, expect, it } from 'vitest';
import { aDiagnostics, anUpdate } from './about-fixture.js';
import { diagnosticsText, updateLine, uptime } from './diagnostics-text.js';

describe('diagnosticsText', () => {
  it('is one line per fact, aligned, from the answer and the browser', () => {
    expect(diagnosticsText(aDiagnostics(), anUpdate(), 'Mozilla/5.0 Test', '2026-11-24T10:00:00.000Z')).toBe(
      [
        'Jig diagnostics',
        'version:    2.0.0',
        'node:       v20.19.0',
        'platform:   linux x64 (6.1.0-18-amd64)',
        'home:       /home/ada/.jig',
        'config:     /home/ada/.jig/config',
        'store:      sqlite /home/ada/.jig/run/jig.db (schema 31)',
        'server:     serve on 127.0.0.1:8765, pid 4242, up 1h 2m',
        'access:     password set; allowed hosts: none',
        'health:     ok',
        'update:     not checked yet',
        'harnesses:  claude (claude-code): 2.1.3 (Claude Code); codex (codex, disabled): not installed',
        'items:      completed 12, running 1 (archived 4)',
        'repos:      2, workspaces 0, add-ons 1, workers 1',
        'search:     57 documents, embeddings off',
        'browser:    Mozilla/5.0 Test',
        'collected:  2026-11-24T10:00:00.000Z',
        '',
      ].join('\n'),
    );
  });

  it('says what differs: an update installed but not running, a degraded health, a PostgreSQL store', () => {
    const text = diagnosticsText(
      aDiagnostics({
        installed: '2.1.0',
        store: { kind: 'postgres', location: 'postgres://jig@db.example:5432/jig', schema_version: 31 },
        health: { status: 'degraded', problems: ['policy.yaml:2:1: bad'], intake_off: true },
        counts: { items: {}, archived: 0, repos: 0, workspaces: 0, addons: 0, workers: 3 },
        harnesses: [],
      }),
      anUpdate({ checked_at: '2026-11-24T09:00:00.000Z', latest: '2.1.0', update_available: true }),
      'UA',
      'now',
    );
    expect(text).toContain('version:    2.0.0 (installed 2.1.0)\n');
    expect(text).toContain('store:      postgres postgres://jig@db.example:5432/jig (schema 31)\n');
    expect(text).toContain('health:     degraded; policy.yaml:2:1: bad; intake off\n');
    expect(text).toContain('update:     2.1.0 available on stable (checked 2026-11-24T09:00:00.000Z)\n');
    expect(text).toContain('harnesses:  none\n');
    expect(text).toContain('items:      none (archived 0)\n');
  });
});

describe('updateLine', () => {
  it('says whether a check ran and what it found', () => {
    expect(updateLine(anUpdate())).toBe('not checked yet');
    expect(updateLine(anUpdate({ checked_at: 'T', latest: '2.0.0' }))).toBe(
      'up to date on stable, newest 2.0.0 (checked T)',
    );
    expect(updateLine(anUpdate({ checked_at: 'T', latest: null }))).toBe(
      'the stable channel has no release (checked T)',
    );
  });
});

describe('uptime', () => {
  it('shows the two largest units', () => {
    expect([uptime(42.7), uptime(125), uptime(3725), uptime(200_000)]).toEqual([
      '42s',
      '2m 5s',
      '1h 2m',
      '2d 7h',
    ]);
  });
});
