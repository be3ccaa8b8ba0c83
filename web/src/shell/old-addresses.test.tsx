// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { boardTest } from '../test-kit.js';
import { OLD_ADDRESSES, oldAddressRoutes } from './old-addresses.js';

/*
 * The 1.x addresses land on their screens now (spec service.md: "old addresses redirect"), in the
 * board's own order of routes: each outranks the `/settings/*` screen that would otherwise say
 * "No such settings tab".
 */

function Here() {
  const l = useLocation();
  return <p data-testid="here">{l.pathname + l.search + l.hash}</p>;
}

/** The board's routes as app.tsx orders them, each screen standing in as where the router is. */
function Board() {
  return (
    <Routes>
      <Route path="/templates/*" element={<Here />} />
      <Route path="/settings/*" element={<Here />} />
      {oldAddressRoutes}
      <Route path="*" element={<p>Not found</p>} />
    </Routes>
  );
}

async function landing(url: string): Promise<string> {
  boardTest({}, { url }).render(<Board />);
  return (await screen.findByTestId('here')).textContent ?? '';
}

describe('old addresses', () => {
  it.each([
    ['/settings/intake', '/settings/auto-intake'],
    ['/settings/notify', '/settings/notifications'],
    ['/settings/chains', '/templates/chains'],
    ['/settings/templates', '/templates/chains'],
    ['/settings/library', '/templates/library'],
    ['/settings/steering', '/templates/library'],
    ['/settings/harnesses', '/templates/harnesses'],
    ['/settings/repos', '/templates/repos'],
    ['/settings/plugins', '/templates/addons'],
  ])('%s lands on %s', async (from, to) => {
    expect(await landing(from)).toBe(to);
  });

  it('lists every redirect tested above', () => {
    expect(OLD_ADDRESSES).toHaveLength(9);
  });

  it('keeps what followed the old path: a chain, the query and the hash', async () => {
    expect(await landing('/settings/chains/default?node=plan#yaml')).toBe(
      '/templates/chains/default?node=plan#yaml',
    );
  });

  it.each(['/settings/policy', '/settings/auto-intake', '/settings/notifications', '/templates/chains'])(
    'leaves %s, which did not move, alone',
    async (path) => {
      expect(await landing(path)).toBe(path);
    },
  );
});
