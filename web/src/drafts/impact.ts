import type { Draft } from './use-area-draft.js';
import { plural } from '../words.js';

/** What a publish reaches, in words; each area's `impact` has its own shape. */
export function impactText(impact: Draft['result']['impact']): string | null {
  if (impact === null) return null;
  if ('tasks' in impact)
    return impact.tasks === 0
      ? 'No task changes which harness it may run on.'
      : `${plural(impact.tasks, 'agent task')} in ${impact.chains.join(', ')} change which harness they may run on.`;
  if ('chains' in impact) return `It reaches chains ${impact.chains.join(', ') || 'none'}.`;
  if (typeof impact.running === 'number') return `${plural(impact.running, 'item')} running.`;
  const rows = Object.entries(impact.running);
  if (rows.length === 0) return null;
  return `${rows.map(([repo, n]) => `${plural(n, 'item')} not ended in ${repo}`).join('; ')}.`;
}
