import { EventEmitter } from 'node:events';

/**
 * Asks for an item's walk without holding the walker. The walker calls slots, gates, parking, waits
 * and escalations (built before it, and handed to it), and each of those starts walks: the one
 * cycle of the engine's graph. It is broken here, by direction: they ask, and the walker, built
 * last, answers every request (it subscribes as it is built; nothing runs before that).
 */
export class WalkRequests {
  private readonly bus = new EventEmitter<{ walk: [id: string] }>();

  /** Runs the item's walk in its queue, in the background (the walker's `kick`). */
  walk(id: string): void {
    this.bus.emit('walk', id);
  }

  answer(walker: (id: string) => void): void {
    this.bus.on('walk', walker);
  }
}
