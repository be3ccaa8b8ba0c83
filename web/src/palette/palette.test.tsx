// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { anItem } from '../fixtures.js';
import { boardTest } from '../test-kit.js';
import { Palette } from './palette.js';

/*
 * ⌘K: the dialog opens with the search box focused, so the first key typed lands in it (showModal
 * alone focuses the dialog, and typing went nowhere until a click).
 */
describe('the search palette', () => {
  it('takes typing at once: the input has the focus when it opens', async () => {
    // As Chromium does: showModal() runs the dialog focusing steps, which focus the element with an
    // `autofocus` attribute (React's autoFocus sets none) or else the dialog itself.
    const proto = HTMLDialogElement.prototype;
    const original = Object.getOwnPropertyDescriptor(proto, 'showModal')!.value as (
      this: HTMLDialogElement,
    ) => void;
    vi.spyOn(proto, 'showModal').mockImplementation(function (this: HTMLDialogElement) {
      original.call(this);
      const first = this.querySelector<HTMLElement>('[autofocus]');
      if (first) return first.focus();
      this.tabIndex = -1;
      this.focus();
    });
    const t = boardTest({
      listItems: () => ({ items: [anItem({ title: 'Fix the login' })], next_cursor: null, total: 1 }),
    });
    t.render(<Palette onClose={() => undefined} />);
    const box = await screen.findByRole('combobox');
    expect(document.activeElement).toBe(box);
    await userEvent.keyboard('login');
    expect((box as HTMLInputElement).value).toBe('login');
    await screen.findByRole('option', { name: /Fix the login/ });
  });
});
