import { useContext, useEffect, useId, useState } from 'react';
import { FieldProblems, Source, type Problem } from './draft.js';
import { FieldVersion } from './field.js';
import { SandboxHere } from './sandbox-here.js';
import type { PolicyResolved, SandboxBlock } from './policy-types.js';
import type { SetValue } from './use-policy.js';

/*
 * Settings › Policy › Sandbox: policy.yaml's `sandbox:`, the instance default for every repository
 * that sets none (docs/sandbox.md). It is one block, sent as one `set_value` (scope and key
 * `sandbox`); what the form does not show (deny lists, per-phase lists, credentials) is kept as
 * written. The file's checks are the server's: their problems show below the form.
 */

type Kind = NonNullable<SandboxBlock['kind']>;
const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'none', label: 'none (the server’s reach)' },
  { kind: 'bubblewrap', label: 'bubblewrap (no image)' },
  { kind: 'podman', label: 'podman (image, limits)' },
  { kind: 'docker', label: 'docker (image, limits)' },
];

const kindOf = (b: SandboxBlock): Kind => b.kind ?? (b.image !== undefined ? 'docker' : 'bubblewrap');
const container = (k: Kind): boolean => k === 'podman' || k === 'docker';

/** The block as one line: what tasks run in now. */
export function sandboxSummary(b: SandboxBlock | null): string {
  if (b === null) return 'None set: tasks of repositories that set none run with the server’s reach.';
  const k = kindOf(b);
  if (k === 'none') return 'None: tasks run with the server’s reach.';
  const where = container(k) && b.image ? `${k}, image ${b.image}` : k;
  const allow = b.network?.allow ?? [];
  const net =
    b.unrestricted_network === true
      ? 'unrestricted network'
      : allow.length > 0
        ? `network: ${allow.join(', ')}`
        : 'no network but Jig';
  return `${where}; ${net}.`;
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** The block the form describes, on top of what it does not show. */
function blockOf(was: SandboxBlock, f: Form): SandboxBlock {
  if (f.kind === 'none') return { kind: 'none' };
  const { image: _i, resources: _r, network: _n, unrestricted_network: _u, ...kept } = was;
  const out: SandboxBlock = { ...kept, kind: f.kind };
  if (container(f.kind)) {
    if (f.image.trim() !== '') out.image = f.image.trim();
    if (f.memory.trim() !== '' || f.pids.trim() !== '')
      out.resources = {
        ...was.resources,
        ...(f.memory.trim() !== '' ? { memory: f.memory.trim() } : {}),
        ...(f.pids.trim() !== '' ? { pids: Number(f.pids) } : {}),
      };
  }
  if (f.open) out.unrestricted_network = true;
  else out.network = { ...was.network, allow: lines(f.allow) };
  return out;
}

interface Form {
  kind: Kind;
  image: string;
  open: boolean;
  allow: string;
  memory: string;
  pids: string;
}

const formOf = (b: SandboxBlock | null): Form => ({
  kind: b === null ? 'none' : kindOf(b),
  image: b?.image ?? '',
  open: b?.unrestricted_network === true,
  allow: (b?.network?.allow ?? []).join('\n'),
  memory: b?.resources?.memory ?? '',
  pids: b?.resources?.pids === undefined ? '' : String(b.resources.pids),
});

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
  const [f, setF] = useState<Form>(() => formOf(block));
  const shown = JSON.stringify(block);
  // The draft's answer is the truth: an undo or a publish puts the form back.
  useEffect(() => setF(formOf(block)), [shown, version]);
  const save = set('sandbox', 'sandbox');
  const edit = (p: Partial<Form>) => setF((was) => ({ ...was, ...p }));
  return (
    <section className="settings-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Sandbox</h2>
      <p className="muted">
        The jail every task runs in for repositories that set no sandbox of their own (docs/sandbox.md).{' '}
        <Source source={r.sandbox.source} />
      </p>
      <p data-testid="sandbox-now">{sandboxSummary(block)}</p>
      <SandboxHere />
      <form
        className="fields"
        onSubmit={(e) => {
          e.preventDefault();
          void save(blockOf(block ?? {}, f));
        }}
      >
        <label>
          Kind
          <select
            value={f.kind}
            disabled={busy}
            onChange={(e) => edit({ kind: KINDS.find((k) => k.kind === e.target.value)?.kind ?? 'none' })}
          >
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        {container(f.kind) && (
          <>
            <label>
              Image
              <input value={f.image} disabled={busy} onChange={(e) => edit({ image: e.target.value })} />
            </label>
            <label>
              Memory limit
              <input
                value={f.memory}
                placeholder="e.g. 4g"
                disabled={busy}
                onChange={(e) => edit({ memory: e.target.value })}
              />
            </label>
            <label>
              Process limit
              <input
                value={f.pids}
                inputMode="numeric"
                disabled={busy}
                onChange={(e) => edit({ pids: e.target.value })}
              />
            </label>
          </>
        )}
        {f.kind !== 'none' && (
          <>
            <label className="check">
              <input
                type="checkbox"
                checked={f.open}
                disabled={busy}
                onChange={(e) => edit({ open: e.target.checked })}
              />
              Unrestricted network (no proxy, no lists)
            </label>
            {!f.open && (
              <label className="wide">
                Hosts tasks may reach, one per line (host, host:port or *.domain)
                <textarea
                  rows={3}
                  value={f.allow}
                  disabled={busy}
                  onChange={(e) => edit({ allow: e.target.value })}
                />
              </label>
            )}
          </>
        )}
        <div className="sandbox-actions">
          <button type="submit" disabled={busy}>
            Set the default sandbox
          </button>
          {block !== null && (
            <button type="button" className="link" disabled={busy} onClick={() => void save(null)}>
              Remove it
            </button>
          )}
        </div>
      </form>
      <FieldProblems problems={at('sandbox')} />
    </section>
  );
}
