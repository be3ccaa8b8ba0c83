import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Archive, BarChart3, LayoutList, Menu, Plus, Search, Settings, Shapes } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useLive, type LiveState } from '../live.js';
import { applyQuery, healthQuery } from '../queries.js';
import { ThemeApplier } from '../settings/apply-theme.js';
import { AboutDialog } from './about.js';
import { AwayBanner } from './away.js';
import { BrowserNotify } from './browser-notify.js';
import { ConfigBanner } from './config-banner.js';

/*
 * The frame around every screen: the sidebar (search, board, and the screens of the next board
 * issue), the footer with the address, version and live state, and the apply chip. The version
 * opens About (shell/about.tsx).
 */

/** The sidebar's pages; More is the phone's tab for the ones its bottom bar has no room for. */
const PAGES = [
  { to: '/', label: 'Board', Icon: LayoutList, phoneOnly: false },
  { to: '/archived', label: 'Archived', Icon: Archive, phoneOnly: false },
  { to: '/analytics', label: 'Analytics', Icon: BarChart3, phoneOnly: false },
  { to: '/templates', label: 'Templates', Icon: Shapes, phoneOnly: false },
  { to: '/settings', label: 'Settings', Icon: Settings, phoneOnly: false },
  { to: '/more', label: 'More', Icon: Menu, phoneOnly: true },
];

const LIVE_LABEL: Record<LiveState, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
};

function ApplyChip() {
  const apply = useQuery({ ...applyQuery(), refetchInterval: 30_000 });
  const a = apply.data;
  if (!a) return null;
  // Files read when needed (harnesses.yaml, repos.yaml) apply by themselves: only a reload's count.
  const pending = a.files.filter((f) => f.changed && f.applies_by === 'reload');
  if (a.restart_needed)
    return (
      <span className="chip chip-warn" role="status">
        Restart needed
      </span>
    );
  if (a.reload_needed && pending.length > 0)
    return (
      <span className="chip chip-warn" role="status" title={pending.map((f) => f.file).join(', ')}>
        {pending.length} change{pending.length === 1 ? '' : 's'} to apply
      </span>
    );
  return null;
}

export function Shell({
  children,
  onSearch,
  onCompose,
}: {
  children: ReactNode;
  onSearch: () => void;
  onCompose: () => void;
}) {
  const client = useQueryClient();
  const live = useLive(client);
  const health = useQuery({ ...healthQuery(), staleTime: 60_000 });
  const [about, setAbout] = useState(false);
  return (
    <div className={`shell${live === 'reconnecting' ? ' away' : ''}`}>
      <ThemeApplier />
      <nav className="sidebar" aria-label="Main">
        <div className="brand">Jig</div>
        <button type="button" className="nav-item" onClick={onSearch} aria-keyshortcuts="Control+K Meta+K">
          <Search size={16} aria-hidden /> Search <kbd>Ctrl K</kbd>
        </button>
        <button type="button" className="nav-item primary" onClick={onCompose} aria-keyshortcuts="c">
          <Plus size={16} aria-hidden /> New item <kbd>c</kbd>
        </button>
        {/* A phone has no `c` key to press and no room for the dialog: its tab opens the full-page composer. */}
        <NavLink to="/work-items/new" className="nav-item phone-only">
          <Plus size={16} aria-hidden /> New item
        </NavLink>
        {PAGES.map(({ to, label, Icon, phoneOnly }) => (
          <NavLink key={to} to={to} end={to === '/'} className={`nav-item${phoneOnly ? ' phone-only' : ''}`}>
            <Icon size={16} aria-hidden /> {label}
          </NavLink>
        ))}
        <div className="sidebar-foot">
          <ApplyChip />
          <BrowserNotify />
          <div className={`live live-${live}`} role="status" aria-live="polite">
            <span className="dot" aria-hidden /> {LIVE_LABEL[live]}
          </div>
          <div className="muted small">{location.host}</div>
          <button type="button" className="link small about-link" onClick={() => setAbout(true)}>
            {health.data ? `v${health.data.version} · ` : ''}About
          </button>
        </div>
      </nav>
      <main className="content" aria-busy={live === 'reconnecting'}>
        <ConfigBanner />
        {children}
      </main>
      <AwayBanner live={live} />
      {about && <AboutDialog onClose={() => setAbout(false)} />}
    </div>
  );
}

/** The screens the next board issue builds: a page that says so, not a fake screen. */
export function Coming({ title }: { title: string }) {
  return (
    <section className="page">
      <h1>{title}</h1>
      <p className="muted">Not in this build of the board yet.</p>
    </section>
  );
}

/** The phone's fourth tab: the screens the bottom bar has no room for, and About (its foot is hidden). */
export function More() {
  const [about, setAbout] = useState(false);
  return (
    <section className="page">
      <h1>More</h1>
      <ul className="more-list">
        <li>
          <NavLink to="/archived">Archived items</NavLink>
        </li>
        <li>
          <NavLink to="/templates">Templates</NavLink>
        </li>
        <li>
          <NavLink to="/settings">Settings</NavLink>
        </li>
        <li>
          <button type="button" className="link" onClick={() => setAbout(true)}>
            About Jig
          </button>
        </li>
      </ul>
      {about && <AboutDialog onClose={() => setAbout(false)} />}
    </section>
  );
}
