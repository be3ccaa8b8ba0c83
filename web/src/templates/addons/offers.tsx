import { useState, type ReactNode } from 'react';
import type { InstalledAddon } from './addons-data.js';
import { CopyChain, CopyComponent } from './copy-forms.js';

/*
 * What an installed add-on offers, by its qualified names: chains and library components (each
 * can be copied into your own files), and the skills and profiles it brings with it.
 */

const SECTIONS = [
  { id: 'nodes', label: 'Nodes' },
  { id: 'steps', label: 'Steps' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'steering', label: 'Steering' },
] as const;

function Offer({ name, copy }: { name: string; copy: (cancel: () => void) => ReactNode }) {
  const [copying, setCopying] = useState(false);
  return (
    <li className="addon-offer">
      <code>{name}</code>
      {copying ? (
        copy(() => setCopying(false))
      ) : (
        <button type="button" aria-label={`Copy ${name} to my library`} onClick={() => setCopying(true)}>
          Copy to my library
        </button>
      )}
    </li>
  );
}

export function Offers({ a }: { a: InstalledAddon }) {
  const groups = [
    {
      id: 'chains',
      label: 'Chains',
      names: a.chains,
      copy: (n: string, cancel: () => void) => <CopyChain from={n} onCancel={cancel} />,
    },
    ...SECTIONS.map((s) => ({
      id: s.id,
      label: s.label,
      names: a.components[s.id],
      copy: (n: string, cancel: () => void) => <CopyComponent section={s.id} from={n} onCancel={cancel} />,
    })),
  ].filter((g) => g.names.length > 0);
  return (
    <div className="addon-offers" role="group" aria-label={`What ${a.namespace} offers`}>
      {groups.length === 0 && <p className="muted small">No chains or library components.</p>}
      {groups.map((g) => (
        <section key={g.id} aria-label={`${a.namespace} ${g.label.toLowerCase()}`}>
          <h4>{g.label}</h4>
          <ul className="addon-offer-list">
            {g.names.map((n) => (
              <Offer key={n} name={n} copy={(cancel) => g.copy(n, cancel)} />
            ))}
          </ul>
        </section>
      ))}
      <p className="small">
        <span className="muted">Skills:</span> {a.skills.length ? a.skills.join(', ') : 'none'}
        {' · '}
        <span className="muted">Profiles:</span> {a.profiles.length ? a.profiles.join(', ') : 'none'}
      </p>
    </div>
  );
}
