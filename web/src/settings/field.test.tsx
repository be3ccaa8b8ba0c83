// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { boardTest } from '../test-kit.js';
import { NumberField } from './field.js';

/*
 * A number of a settings draft (Policy, Auto-intake): sent as one op when the field is left or
 * Enter is pressed, never twice for one change, and never when it is not a number.
 */

describe('NumberField', () => {
  it('sends the number typed once, on Enter and leaving the field alike; empty sends null', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(async () => true);
    boardTest({}).render(
      <NumberField label="Items running at once" value={3} source="policy" onSave={onSave} />,
    );
    const input = screen.getByRole('textbox', { name: 'Items running at once' });
    expect(input).toHaveProperty('value', '3');

    await user.clear(input);
    await user.type(input, ' 4 {Enter}');
    await user.tab();
    // Back to the value shown: nothing to send.
    await user.clear(input);
    await user.type(input, '3');
    await user.tab();
    await user.clear(input);
    await user.tab();
    expect(onSave.mock.calls).toEqual([[4], [null]]);
  });

  it('says "Not a number." and sends nothing; a value that cannot be cleared says why and comes back', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(async () => true);
    boardTest({}).render(
      <NumberField
        label="Loop attempts"
        value={2}
        required="An override keeps both limits: type a number."
        onSave={onSave}
      />,
    );
    const input = screen.getByRole('textbox', { name: 'Loop attempts' });

    await user.clear(input);
    await user.type(input, 'two{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Not a number.');
    expect(input.getAttribute('aria-invalid')).toBe('true');

    await user.clear(input);
    await user.tab();
    expect(screen.getByRole('alert').textContent).toBe('An override keeps both limits: type a number.');
    expect(input).toHaveProperty('value', '2');
    expect(onSave).not.toHaveBeenCalled();
  });
});
