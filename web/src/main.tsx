import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app.js';
// The board's styles, in this order (each later file may refine an earlier one's rules).
import './styles/base.css';
import './styles/board.css';
import './styles/item.css';
import './styles/dialogs.css';
import './styles/phone.css';
import './styles/graph.css';
import './styles/panels.css';
import './styles/marks.css';

// Live events refresh what changed; polling on focus would only double the requests.
const client = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1, staleTime: 5_000 } },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
