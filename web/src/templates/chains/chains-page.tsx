import { Route, Routes } from 'react-router';
import { ChainsList } from './chains-list.js';
import { ChainEditor } from './editor.js';
import './chains.css';

/** Templates › Chains: the list at `/templates/chains`, one chain's editor at `/templates/chains/:id`. */
export function ChainsPage() {
  return (
    <Routes>
      <Route index element={<ChainsList />} />
      <Route path=":id" element={<ChainEditor />} />
    </Routes>
  );
}
