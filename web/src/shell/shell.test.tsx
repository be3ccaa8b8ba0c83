// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { boardTest } from '../test-kit.js';
import { Shell } from './shell.js';

/*
 * The phone's bottom bar (phone.css shows `.phone-only` under 768 px and hides the dialog's button):
 * New item is there, as the full-page composer, since a phone has no `c` key and no room for the dialog.
 */
describe('the sidebar', () => {
  it('has New item for the phone, opening the full-page composer', () => {
    vi.stubGlobal(
      'WebSocket',
      class {
        close() {}
      },
    );
    boardTest({}).render(
      <Shell onSearch={() => undefined} onCompose={() => undefined}>
        <p>page</p>
      </Shell>,
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const phone = within(nav).getByRole('link', { name: 'New item' });
    expect(phone.getAttribute('href')).toBe('/work-items/new');
    expect(phone.classList.contains('phone-only')).toBe(true);
    // The wide screen's button opens the dialog; the phone hides it (phone.css `.nav-item.primary`).
    expect(
      within(nav)
        .getByRole('button', { name: /New item/ })
        .classList.contains('primary'),
    ).toBe(true);
  });
});
