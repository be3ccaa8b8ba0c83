// @vitest-environment happy-dom
import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { boardTest } from '../test-kit.js';
import { Shell } from './shell.js';

/*
 * The server away: when the event stream drops, the shell dims its page and says that actions are
 * paused until the server is back; when the stream says hello again, the page is as it was.
 */

/** A WebSocket the test drives: each one the board opens is kept, to close or greet it. */
class FakeSocket {
  static opened: FakeSocket[] = [];
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  hello(): void {
    this.onmessage?.({ data: JSON.stringify({ type: 'hello', after_seq: 0, last_seq: 0 }) });
  }
  close(): void {}
}

describe('the shell while the server is away', () => {
  it('dims the page and says actions are paused, until the stream is back', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      FakeSocket.opened = [];
      vi.stubGlobal('WebSocket', FakeSocket);
      const t = boardTest({});
      const { container } = t.render(
        <Shell onSearch={() => undefined} onCompose={() => undefined}>
          <p>The page</p>
        </Shell>,
      );
      const shell = container.querySelector('.shell')!;
      act(() => FakeSocket.opened[0]!.hello());
      expect(screen.queryByRole('alert')).toBeNull();
      expect(shell.classList.contains('away')).toBe(false);

      act(() => FakeSocket.opened[0]!.onclose?.());
      expect(screen.getByRole('alert').textContent).toContain('Actions are paused until it is back');
      expect(shell.classList.contains('away')).toBe(true);
      // What the page shows is still there to read.
      expect(screen.getByText('The page')).toBeTruthy();

      // The board tries again by itself, and a hello ends the pause.
      act(() => void vi.advanceTimersByTime(500));
      expect(FakeSocket.opened).toHaveLength(2);
      act(() => FakeSocket.opened[1]!.hello());
      expect(screen.queryByRole('alert')).toBeNull();
      expect(shell.classList.contains('away')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
