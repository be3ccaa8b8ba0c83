// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AddField } from './add-field.js';
import { fieldHelp, humanize, settable } from './field-help.js';

/* The chain inspector's words for fields come from the chain schema, and the add row types its value. */
describe('field help', () => {
  it('labels a key in words with the schema’s description and its type', () => {
    expect(humanize('chain_finalized')).toBe('Chain finalized');
    expect(fieldHelp('node', 'chain_finalized')).toEqual({
      key: 'chain_finalized',
      label: 'Chain finalized',
      description: 'marks the final review gate',
      type: 'boolean',
    });
    expect(fieldHelp('task', 'run').type).toBe('string');
    expect(fieldHelp('node', 'no_such_key')).toMatchObject({ label: 'No such key', description: null });
  });

  it('offers the keys a node may still set, without those with controls of their own', () => {
    const keys = settable('node', ['message', 'artifact']).map((f) => f.key);
    expect(keys).toContain('chain_finalized');
    expect(keys).not.toContain('message');
    expect(keys).not.toContain('steps');
    expect(keys).not.toContain('id');
  });
});

describe('the add-a-field row', () => {
  it('gives a yes/no key a choice and sends a boolean, a text key its text', async () => {
    const onSet = vi.fn(async () => undefined);
    render(<AddField scope="node" set={[]} onSet={onSet} />);
    await userEvent.type(screen.getByLabelText('Field name'), 'chain_finalized');
    const choice = screen.getByLabelText('Field value');
    expect(choice.tagName).toBe('SELECT');
    expect(screen.getByText('marks the final review gate')).toBeTruthy();
    await userEvent.selectOptions(choice, 'no');
    await userEvent.click(screen.getByRole('button', { name: 'Set field' }));
    expect(onSet).toHaveBeenLastCalledWith('chain_finalized', false);

    await userEvent.type(screen.getByLabelText('Field name'), 'message');
    // Text stays text: "true" typed as a message is not a boolean.
    await userEvent.type(screen.getByLabelText('Field value'), 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Set field' }));
    expect(onSet).toHaveBeenLastCalledWith('message', 'true');
  });
});
