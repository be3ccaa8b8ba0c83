import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ApplyRefusal } from '../../../src/contract/apply.js';
import { formatProblem } from '../../../src/contract/problems.js';
import { applyQuery } from '../queries.js';
import './config-banner.css';

/*
 * Issue 48: a config file that does not load was only an amber "2 changes to apply". The banner
 * above every page names each file a reload would refuse, each problem at `file:line:col`, says what
 * runs meanwhile, and links to the screen that edits the file.
 */

/** The board's editor of a config file. */
export function editorOf(file: string): string {
  const chain = /^chains\/(.+)\.yaml$/.exec(file);
  if (chain) return `/templates/chains/${encodeURIComponent(chain[1] ?? '')}`;
  const screens: Record<string, string> = {
    'library.yaml': '/templates/library/yaml',
    'harnesses.yaml': '/templates/harnesses',
    'repos.yaml': '/templates/repos',
    'policy.yaml': '/settings/policy',
    'intake.yaml': '/settings/auto-intake',
    'notify.yaml': '/settings/notifications',
  };
  return screens[file] ?? '/templates';
}

function meanwhile(r: ApplyRefusal): string {
  if (r.kept) return 'the running version is kept until it loads';
  if (r.file === 'notify.yaml') return 'no notification is sent until it loads';
  if (r.file.startsWith('chains/')) return 'the chain does not run until it loads';
  return 'the next read meets the problem';
}

export function ConfigBanner() {
  const apply = useQuery({ ...applyQuery(), refetchInterval: 30_000 });
  const refused = apply.data?.refused ?? [];
  if (refused.length === 0) return null;
  return (
    <section className="config-banner" role="alert" aria-label="Config files that do not load">
      <strong>
        {refused.length === 1 ? 'A config file does not load' : `${refused.length} config files do not load`}
      </strong>
      <ul>
        {refused.map((r) => (
          <li key={r.file}>
            <Link to={editorOf(r.file)}>{r.file}</Link>: {meanwhile(r)}.
            <ul>
              {r.problems.map((p, i) => (
                <li key={i}>
                  <code>{formatProblem(p)}</code>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
