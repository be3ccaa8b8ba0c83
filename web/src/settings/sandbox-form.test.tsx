// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { boardTest } from '../test-kit.js';
import { SandboxForm } from './sandbox-form.js';

/*
 * The sandbox form of Settings › Policy and Templates › Repos: what it sends keeps what it does
 * not show, and a repository that inherits the instance default starts from it (never `none`).
 */

const inherited = {
  kind: 'bubblewrap' as const,
  network: { allow: ['a.test'], install: { allow: ['registry.npmjs.org'] } },
  credentials: [{ env: 'ANTHROPIC_API_KEY', hosts: ['api.anthropic.com'], header: 'x-api-key' }],
};

describe('SandboxForm', () => {
  it('starts from an inherited block and sends a copy of it, keeping what the form does not show', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    boardTest({}).render(
      <SandboxForm
        block={null}
        start={inherited}
        reset=""
        busy={false}
        submit="Set"
        onSave={onSave}
        onRemove={vi.fn()}
      />,
    );
    expect(screen.getByRole('combobox', { name: 'Kind' })).toHaveProperty('value', 'bubblewrap');
    // Nothing of its own to remove.
    expect(screen.queryByRole('button', { name: 'Remove it' })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: /^Hosts tasks may reach/ }), '\nb.test');
    await user.click(screen.getByRole('button', { name: 'Set' }));
    expect(onSave.mock.calls).toEqual([
      [{ ...inherited, network: { ...inherited.network, allow: ['a.test', 'b.test'] } }],
    ]);
  });

  it('with neither a block nor one to start from, starts at none and sends just that', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    const onRemove = vi.fn();
    boardTest({}).render(
      <SandboxForm block={null} reset="" busy={false} submit="Set" onSave={onSave} onRemove={onRemove} />,
    );
    expect(screen.getByRole('combobox', { name: 'Kind' })).toHaveProperty('value', 'none');
    await user.click(screen.getByRole('button', { name: 'Set' }));
    expect(onSave.mock.calls).toEqual([[{ kind: 'none' }]]);
  });
});
