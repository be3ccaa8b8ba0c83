import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Route, Routes, useNavigate } from 'react-router';
import { Board } from './board/board.js';
import { Composer } from './composer/composer.js';
import { Palette } from './palette/palette.js';
import { ItemPage } from './item/item-page.js';
import { oldAddressRoutes } from './shell/old-addresses.js';
import { Coming, More, Shell } from './shell/shell.js';

// The screens a person opens now and then load with their page, not with the board.
const Analytics = lazy(() => import('./analytics/analytics.js'));
const Templates = lazy(() => import('./templates/templates.js'));
const Settings = lazy(() => import('./settings/settings.js'));
const ReviewPage = lazy(() => import('./review/review-page.js'));
const NewItemPage = lazy(() => import('./composer/new-item-page.js'));

const later = (screen: ReactNode) => (
  <Suspense fallback={<p className="page muted">Loading…</p>}>{screen}</Suspense>
);

/** Keys that work on every screen: Ctrl/⌘+K searches, `/` filters the board, `c` composes. */
function useGlobalKeys(search: () => void, compose: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const typing =
        e.target instanceof HTMLInputElement ||
        e.target instanceof HTMLTextAreaElement ||
        e.target instanceof HTMLSelectElement;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        search();
      } else if (!typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        if (e.key === '/') {
          const filter = document.getElementById('board-filter');
          if (filter) {
            e.preventDefault();
            filter.focus();
          }
        } else if (e.key === 'c') {
          e.preventDefault();
          compose();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [search, compose]);
}

export function App() {
  const [searching, setSearching] = useState(false);
  const [composing, setComposing] = useState(false);
  const navigate = useNavigate();
  const search = () => setSearching(true);
  const compose = () => setComposing(true);
  useGlobalKeys(search, compose);
  return (
    <Shell onSearch={search} onCompose={compose}>
      <Routes>
        <Route path="/" element={<Board />} />
        <Route path="/archived" element={<Board archived />} />
        <Route path="/work-items/new" element={later(<NewItemPage onFewer={compose} />)} />
        <Route path="/work-items/:id" element={<ItemPage />} />
        <Route path="/work-items/:id/nodes/:node" element={<ItemPage />} />
        <Route path="/work-items/:id/review" element={later(<ReviewPage />)} />
        <Route path="/analytics" element={later(<Analytics />)} />
        <Route path="/templates/*" element={later(<Templates />)} />
        <Route path="/settings/*" element={later(<Settings />)} />
        <Route path="/more" element={<More />} />
        {oldAddressRoutes}
        <Route path="*" element={<Coming title="Not found" />} />
      </Routes>
      {searching && <Palette onClose={() => setSearching(false)} />}
      {composing && (
        <Composer
          onClose={() => setComposing(false)}
          onCreated={(item) => {
            setComposing(false);
            void navigate(`/work-items/${item.id}`);
          }}
        />
      )}
    </Shell>
  );
}
