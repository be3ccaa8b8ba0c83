import type { ItemStatus } from '../../contract/item-status.js';

export const endedStatuses: readonly ItemStatus[] = ['completed', 'cancelled', 'abandoned'];

export function isEnded(status: ItemStatus): boolean {
  return endedStatuses.includes(status);
}

/** Items that keep a repo connected: any not completed, cancelled or abandoned (paused included). */
export function blocksDisconnect(status: ItemStatus): boolean {
  return !isEnded(status);
}
