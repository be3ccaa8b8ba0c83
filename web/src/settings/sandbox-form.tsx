import { useEffect, useState } from 'react';
import type { SandboxBlock } from './policy-types.js';
import './sandbox-form.css';

/*
 * A `sandbox:` block as a form (docs/sandbox.md): the kind, a container's image and limits, and the
 * network (unrestricted, or the hosts every task may reach). What the form does not show (deny
 * lists, per-phase lists, credentials) is kept as written. Settings › Policy › Sandbox (the
 * instance default) and Templates › Repos (a repository's own) both use it; each sends the block
 * through its own draft.
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

/** The block as one line: what tasks run in. */
export function sandboxLine(b: SandboxBlock): string {
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
    const limits = { memory: f.memory.trim(), pids: f.pids.trim() };
    if (limits.memory !== '' || limits.pids !== '')
      out.resources = {
        ...was.resources,
        ...(limits.memory !== '' ? { memory: limits.memory } : {}),
        ...(limits.pids !== '' ? { pids: Number(limits.pids) } : {}),
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

/** One text field of the form. */
function Field(p: {
  label: string;
  value: string;
  busy: boolean;
  placeholder?: string;
  numeric?: boolean;
  onChange: (v: string) => void;
}) {
  return (
    <label>
      {p.label}
      <input
        value={p.value}
        disabled={p.busy}
        {...(p.placeholder ? { placeholder: p.placeholder } : {})}
        {...(p.numeric ? { inputMode: 'numeric' as const } : {})}
        onChange={(e) => p.onChange(e.target.value)}
      />
    </label>
  );
}

export function SandboxForm({
  block,
  start = null,
  reset,
  busy,
  submit,
  onSave,
  onRemove,
}: {
  /** The block as written, or null when there is none. */
  block: SandboxBlock | null;
  /**
   * Where the form starts, and what it keeps of what it does not show, when there is no block:
   * the one inherited (a repository's, from policy.yaml), so Set copies it rather than `none`.
   */
  start?: SandboxBlock | null;
  /** Changes when the draft's answer should put the form back (an undo, a publish). */
  reset: string;
  busy: boolean;
  /** The submit button's words. */
  submit: string;
  onSave: (b: SandboxBlock) => void;
  /** Removes the block (shown when there is one). */
  onRemove: () => void;
}) {
  const from = block ?? start;
  const [f, setF] = useState<Form>(() => formOf(from));
  const shown = JSON.stringify(from);
  // The draft's answer is the truth: an undo or a publish puts the form back.
  useEffect(() => setF(formOf(from)), [shown, reset]);
  const edit = (p: Partial<Form>) => setF((was) => ({ ...was, ...p }));
  return (
    <form
      className="fields sandbox-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(blockOf(from ?? {}, f));
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
          <Field label="Image" value={f.image} busy={busy} onChange={(image) => edit({ image })} />
          <Field
            label="Memory limit"
            value={f.memory}
            placeholder="e.g. 4g"
            busy={busy}
            onChange={(memory) => edit({ memory })}
          />
          <Field
            label="Process limit"
            value={f.pids}
            numeric
            busy={busy}
            onChange={(pids) => edit({ pids })}
          />
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
          {submit}
        </button>
        {block !== null && (
          <button type="button" className="link" disabled={busy} onClick={onRemove}>
            Remove it
          </button>
        )}
      </div>
    </form>
  );
}
