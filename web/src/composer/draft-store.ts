import { useSyncExternalStore } from 'react';
import { emptyDraft, type Draft } from './draft.js';

/*
 * The one draft the dialog and the full page share: "More options" and back hand it over instead
 * of copying it. It lives in the tab's sessionStorage, so a reload of /work-items/new keeps what
 * was typed and another tab starts afresh.
 */

const KEY = 'jig.composer.draft';
const listeners = new Set<() => void>();

function read(): Draft {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    // Spread over a fresh draft: a draft stored by an older board gains the fields it lacks.
    return raw ? { ...emptyDraft(), ...(JSON.parse(raw) as Partial<Draft>) } : emptyDraft();
  } catch {
    return emptyDraft();
  }
}

let current: Draft | null = null;

function set(next: Draft | null): void {
  current = next ?? emptyDraft();
  try {
    if (next) window.sessionStorage.setItem(KEY, JSON.stringify(next));
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode, quota): the draft still lives until the page unloads.
  }
  for (const l of listeners) l();
}

const snapshot = (): Draft => (current ??= read());

export function updateDraft(change: (d: Draft) => Draft): void {
  set(change(snapshot()));
}

/** Forgets the draft: filed, or closed on purpose. */
export function resetDraft(): void {
  set(null);
}

export function useDraft(): Draft {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    snapshot,
    snapshot,
  );
}
