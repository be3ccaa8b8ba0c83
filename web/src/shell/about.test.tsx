// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { boardTest, refusal, type Answers } from '../test-kit.js';
import { AboutDialog } from './about.js';
import { aDiagnostics, anUpdate } from './about-fixture.js';

/*
 * About: the versions, the update check and the command that applies it, the home and the store,
 * and Copy diagnostics (what goes on the clipboard is what the dialog shows).
 */

const server = (more: Answers = {}): Answers => ({
  getDiagnostics: () => aDiagnostics(),
  getUpdate: () => anUpdate(),
  ...more,
});

/** The fact a `<dt>` names, as its `<dd>` reads. */
const fact = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling?.textContent;

describe('About', () => {
  it('shows the version, the last check, the home, the store and the address', async () => {
    const t = boardTest(server());
    t.render(<AboutDialog onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'About Jig' });
    await within(dialog).findByText('Version', { selector: 'dt' });
    expect(fact('Version')).toBe('2.0.0, running and installed');
    expect(fact('Updates')).toBe('not checked yet');
    expect(fact('Home')).toBe('/home/ada/.jig');
    expect(fact('Store')).toBe('SQLite /home/ada/.jig/run/jig.db');
    expect(fact('Address')).toBe('127.0.0.1:8765');
    // Opening About asks the feed nothing: only the cached check is read.
    expect(t.api.calls.map((c) => c.route).sort()).toEqual(['getDiagnostics', 'getUpdate']);
  });

  it('says a restart runs the version installed, and a PostgreSQL store by its URL', async () => {
    boardTest(
      server({
        getDiagnostics: () =>
          aDiagnostics({
            installed: '2.1.0',
            store: { kind: 'postgres', location: 'postgres://jig@db:5432/jig', schema_version: 31 },
          }),
      }),
    ).render(<AboutDialog onClose={() => undefined} />);
    await screen.findByText('Version', { selector: 'dt' });
    expect(fact('Version')).toBe('2.0.0 running, 2.1.0 installed: restart to run it (jig admin restart)');
    expect(fact('Store')).toBe('PostgreSQL postgres://jig@db:5432/jig');
  });

  it('checks for updates on request and shows the command that applies what it found', async () => {
    const found = anUpdate({
      checked_at: '2026-11-24T10:00:00.000Z',
      latest: '2.1.0',
      update_available: true,
      apply: 'jig admin update --yes',
    });
    const t = boardTest(server({ checkUpdate: () => found }));
    t.render(<AboutDialog onClose={() => undefined} />);
    await screen.findByText('not checked yet');
    await userEvent.click(screen.getByRole('button', { name: 'Check for updates' }));
    await screen.findByText('2.1.0 available on stable (checked 2026-11-24T10:00:00.000Z)');
    expect(fact('Updates')).toContain("To apply it, run on the server's machine: jig admin update --yes");
    expect(t.api.of('checkUpdate')).toEqual([{ route: 'checkUpdate', body: { channel: 'stable' } }]);
  });

  it('shows why a check failed and keeps the last result', async () => {
    boardTest(
      server({
        checkUpdate: () => refusal(502, 'update_feed_failed', 'the release feed did not answer: HTTP 503'),
      }),
    ).render(<AboutDialog onClose={() => undefined} />);
    await screen.findByText('not checked yet');
    await userEvent.click(screen.getByRole('button', { name: 'Check for updates' }));
    expect((await screen.findByRole('alert')).textContent).toBe('the release feed did not answer: HTTP 503');
    expect(screen.getByText('not checked yet')).toBeTruthy();
  });

  it('copies the diagnostics and shows what it copied', async () => {
    const write = vi.fn(async (_text: string) => undefined);
    vi.stubGlobal('navigator', { ...navigator, userAgent: 'TestAgent/1', clipboard: { writeText: write } });
    boardTest(server()).render(<AboutDialog onClose={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Copy diagnostics' }));
    const shown = (await screen.findByLabelText('Diagnostics')).textContent ?? '';
    expect(write).toHaveBeenCalledWith(shown);
    expect(shown).toMatch(/^Jig diagnostics\nversion: +2\.0\.0\n/);
    expect(shown).toContain('store:      sqlite /home/ada/.jig/run/jig.db (schema 31)\n');
    expect(shown).toContain('browser:    TestAgent/1\n');
    expect(screen.getByRole('status').textContent).toBe('Copied. Paste it into the bug report.');
  });

  it('says so when the browser refuses the clipboard, and still shows the text', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: () => Promise.reject(new Error('denied')) },
    });
    boardTest(server()).render(<AboutDialog onClose={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Copy diagnostics' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'The browser refused the clipboard: select the text below and copy it.',
    );
    expect(screen.getByLabelText('Diagnostics').textContent).toContain('Jig diagnostics');
  });

  it('closes with its Close button', async () => {
    const onClose = vi.fn();
    boardTest(server()).render(<AboutDialog onClose={onClose} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledOnce();
  });
});
