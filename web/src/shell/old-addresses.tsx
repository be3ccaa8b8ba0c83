import { Navigate, Route, useLocation, useParams } from 'react-router';

/*
 * Addresses of the 1.x board and where their screens are now (spec service.md, "Behavior changes
 * from 1.4 to 2.0": old addresses redirect). 1.x kept every editor under /settings/…; 2.0 moved the
 * ones that shape how work runs under Templates and renamed two settings screens. A bookmark or a
 * link in an old issue lands on the screen it meant, with whatever followed the old path.
 */
export const OLD_ADDRESSES: readonly (readonly [from: string, to: string])[] = [
  ['/settings/intake', '/settings/auto-intake'],
  ['/settings/notify', '/settings/notifications'],
  ['/settings/chains', '/templates/chains'],
  // 1.x sent its templates page to the chains editor already.
  ['/settings/templates', '/templates/chains'],
  ['/settings/library', '/templates/library'],
  // Steering is a kind of library component now.
  ['/settings/steering', '/templates/library'],
  ['/settings/harnesses', '/templates/harnesses'],
  ['/settings/repos', '/templates/repos'],
  // What the original's 2.0 calls plugins are Jig's add-ons.
  ['/settings/plugins', '/templates/addons'],
];

/** A redirect that keeps what followed the old path (`/settings/chains/default` → `…/chains/default`). */
function Moved({ to }: { to: string }) {
  const rest = useParams()['*'] ?? '';
  const { search, hash } = useLocation();
  return <Navigate replace to={{ pathname: rest ? `${to}/${rest}` : to, search, hash }} />;
}

/** The redirects as routes, for the board's `<Routes>`: each outranks `/settings/*` by being longer. */
export const oldAddressRoutes = OLD_ADDRESSES.map(([from, to]) => (
  <Route key={from} path={`${from}/*`} element={<Moved to={to} />} />
));
