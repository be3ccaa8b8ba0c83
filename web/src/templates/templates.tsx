import { NavLink, Navigate, Route, Routes } from 'react-router';
import { AddonsPage } from './addons/addons-page.js';
import { ChainsPage } from './chains/chains-page.js';
import { HarnessesPage } from './harnesses/harnesses-page.js';
import { LibraryPage } from './library/library-page.js';
import { ReposPage } from './repos/repos-page.js';

/*
 * Templates: the chains, the library they build from, the harnesses that run their tasks, the
 * repositories they run on and the add-ons that bring more of them, one tab each; each tab's
 * address is its own (`/templates/chains/quick`).
 */
const TABS = [
  { to: 'chains', label: 'Chains' },
  { to: 'library', label: 'Library' },
  { to: 'harnesses', label: 'Harnesses' },
  { to: 'repos', label: 'Repos' },
  { to: 'addons', label: 'Add-ons' },
];

export default function Templates() {
  return (
    <section className="page templates">
      <h1>Templates</h1>
      <nav className="tabs" aria-label="Templates">
        {TABS.map((t) => (
          <NavLink key={t.to} to={`/templates/${t.to}`} className="tab">
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route index element={<Navigate to="chains" replace />} />
        <Route path="chains/*" element={<ChainsPage />} />
        <Route path="library/*" element={<LibraryPage />} />
        <Route path="harnesses/*" element={<HarnessesPage />} />
        <Route path="repos/*" element={<ReposPage />} />
        <Route path="addons/*" element={<AddonsPage />} />
        <Route path="*" element={<p className="muted">No such templates tab.</p>} />
      </Routes>
    </section>
  );
}
