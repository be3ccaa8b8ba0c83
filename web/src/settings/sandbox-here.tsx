import { useQuery } from '@tanstack/react-query';
import { sandboxQuery } from '../queries.js';

/*
 * What this machine can jail tasks with, in a sentence (the getSandbox route): the wizard and
 * Settings › Policy › Sandbox show it, so nobody has to guess which kind to set.
 */
export function SandboxHere() {
  const q = useQuery(sandboxQuery());
  const a = q.data;
  if (!a) return null;
  const works = a.kinds.filter((k) => k.works).map((k) => k.kind);
  const text =
    works.length > 0
      ? `Works on this machine: ${works.join(', ')}.`
      : `No sandbox works on this machine: ${a.kinds.map((k) => k.why ?? k.kind).join('; ')}.`;
  return (
    <p className="muted" data-testid="sandbox-here">
      {text}
    </p>
  );
}
