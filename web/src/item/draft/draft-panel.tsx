import type { Item } from '../../api.js';

/** The item's draft (a change to the not-yet-run part of its chain): built by the board's part 2. */
export function DraftPanel(_props: { item: Item }) {
  return null;
}
