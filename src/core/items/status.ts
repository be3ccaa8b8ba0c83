import type { ItemStatus } from '../../contract/item-status.js';

/** Ended items: done, and they no longer keep a repo connected (paused and never-started ones do). */
export const endedStatuses: readonly ItemStatus[] = ['completed', 'cancelled', 'abandoned'];

export function isEnded(status: ItemStatus): boolean {
  return endedStatuses.includes(status);
}
