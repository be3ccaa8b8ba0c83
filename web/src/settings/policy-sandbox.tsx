import { useContext, useId } from 'react';
import { FieldProblems, Source, type Problem } from './draft.js';
import { FieldVersion } from './field.js';
import { SandboxForm, sandboxLine } from './sandbox-form.js';
import { SandboxHere } from './sandbox-here.js';
import type { PolicyResolved, SandboxBlock } from './policy-types.js';
import type { SetValue } from './use-policy.js';

/*
 * Settings › Policy › Sandbox: policy.yaml's `sandbox:`, the instance default for every repository
 * that sets none (docs/sandbox.md). It is one block, sent as one `set_value` (scope and key
 * `sandbox`). The file's checks are the server's: their problems show below the form.
 */

/** The block as one line: what tasks run in now. */
export function sandboxSummary(b: SandboxBlock | null): string {
  if (b === null) return 'None set: tasks of repositories that set none run with the server’s reach.';
  return sandboxLine(b);
}

export function PolicySandbox({
  r,
  at,
  set,
  busy,
}: {
  r: PolicyResolved;
  at: (key: string) => Problem[];
  set: SetValue;
  busy: boolean;
}) {
  const id = useId();
  const block = r.sandbox.value;
  const version = useContext(FieldVersion);
  const save = set('sandbox', 'sandbox');
  return (
    <section className="settings-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Sandbox</h2>
      <p className="muted">
        The jail every task runs in for repositories that set no sandbox of their own (docs/sandbox.md).{' '}
        <Source source={r.sandbox.source} />
      </p>
      <p data-testid="sandbox-now">{sandboxSummary(block)}</p>
      <SandboxHere />
      <SandboxForm
        block={block}
        reset={version}
        busy={busy}
        submit="Set the default sandbox"
        onSave={(b) => void save(b)}
        onRemove={() => void save(null)}
      />
      <FieldProblems problems={at('sandbox')} />
    </section>
  );
}
