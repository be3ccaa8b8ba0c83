import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { DryRunAnswer } from '../../../src/contract/items.js';
import { callRoute, routes } from '../api.js';
import type { Body } from './draft.js';

export type DryRun = z.infer<typeof DryRunAnswer>;

/** The dry run's answer or refusal, with the body it was asked about. */
export interface DryState {
  asked: Body;
  run?: DryRun;
  error?: string;
}

/** How long the form rests before the server is asked: a run per keystroke would be a flood. */
const REST_MS = 250;

/**
 * The server's dry run of the body (the create route with `dry_run=1`: every check of a create,
 * nothing filed), following it a moment after it last changed; null while there is nothing to ask.
 * A newer body aborts the answer to an older one, so a slow answer never overwrites a fresh one.
 */
export function useDryRun(body: Body | null): DryState | null {
  const [dry, setDry] = useState<DryState | null>(null);
  const key = body ? JSON.stringify(body) : null;
  useEffect(() => {
    if (key === null) return setDry(null);
    const abort = new AbortController();
    const asked = JSON.parse(key) as Body;
    const t = window.setTimeout(() => {
      callRoute(routes.createItem, { query: { dry_run: '1' }, body: asked, signal: abort.signal })
        .then((run) => setDry('dry_run' in run ? { asked, run } : null))
        .catch((e: Error) => {
          if (!abort.signal.aborted) setDry({ asked, error: e.message });
        });
    }, REST_MS);
    return () => {
      window.clearTimeout(t);
      abort.abort();
    };
  }, [key]);
  return dry;
}
