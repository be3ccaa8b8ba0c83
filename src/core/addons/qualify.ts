import type { Problem } from '../../contract/problems.js';
import type { AEntry, ANode } from '../config/tree.js';

/*
 * An add-on's library and chains as Jig reads them (ADR 0020): every bare name inside them is
 * qualified with the namespace it is installed under, so the chain resolver needs nothing new
 * (`extends: implementer` in add-on `release` is `release:implementer`), and every rule that makes
 * an add-on self-contained and limits-only is checked on the way, at the value's line.
 */

export interface QualifyContext {
  /** The namespace it is installed under: its name, or the `--as` alias. */
  namespace: string;
  /** The manifest's `name`: a reference written with it (`release:base`) is its own. */
  name: string;
  /** Profile names its profiles.yaml defines. */
  ownProfiles: ReadonlySet<string>;
  /** Skill names its skills/ folder holds. */
  ownSkills: ReadonlySet<string>;
  /** `requires.harnesses` and `requires.profiles` of the manifest. */
  harnesses: readonly string[];
  profiles: readonly string[];
}

/** The namespace Jig's packaged skills use; an add-on may name them (`jig:code-review`). */
const PACKAGED = 'jig';
/** Keys that grant what the instance did not: an add-on carries limits, never permissions. */
const PERMISSION_KEYS = new Set(['grants', 'sandbox']);
const SUBPROCESS_KEYS = new Set(['run', 'argv', 'command']);

interface Found {
  problems: Problem[];
}

const at = (file: string, n: { pos: { line: number; col: number } }, message: string): Problem => ({
  path: '',
  field: null,
  message,
  file,
  line: n.pos.line,
  col: n.pos.col,
});

const list = (names: readonly string[]): string =>
  names.length === 0 ? 'none' : names.map((n) => `\`${n}\``).join(', ');

/**
 * The tree with its references qualified, and the problems found: a reference to another add-on
 * or to the instance's library, a `subprocess` task, a permission, a harness or profile its
 * manifest does not require, a skill it does not carry.
 */
export function qualifyTree(tree: ANode, file: string, ctx: QualifyContext): { tree: ANode } & Found {
  const out: Found = { problems: [] };
  const walk = (n: ANode): ANode => {
    if (n.t === 'scalar') return n;
    if (n.t === 'seq') return { ...n, items: n.items.map(walk) };
    return { ...n, entries: n.entries.map((e) => walkEntry(e)) };
  };
  const walkEntry = (e: AEntry): AEntry => {
    const v = e.value;
    if (PERMISSION_KEYS.has(e.key) || SUBPROCESS_KEYS.has(e.key)) {
      out.problems.push(
        at(
          file,
          { pos: e.keyPos },
          SUBPROCESS_KEYS.has(e.key)
            ? `\`${e.key}\` runs a command: an add-on cannot carry subprocess tasks`
            : `\`${e.key}\` is a permission: an add-on carries limits, never permissions`,
        ),
      );
      return e;
    }
    if (e.key === 'kind' && v.t === 'scalar' && v.value === 'subprocess') {
      out.problems.push(at(file, v, '`kind: subprocess`: an add-on cannot carry subprocess tasks'));
      return e;
    }
    if (v.t === 'scalar' && typeof v.value === 'string') {
      const q = qualifyValue(e.key, v.value, ctx);
      if (q === undefined) return e;
      if (!q.ok) {
        out.problems.push(at(file, v, q.message));
        return e;
      }
      return { ...e, value: { ...v, value: q.value } };
    }
    // `steering:` of a task is a list of names; library.yaml's own `steering:` section is a mapping.
    if (e.key === 'steering' && v.t === 'seq') {
      const items = v.items.map((it) => {
        if (it.t !== 'scalar' || typeof it.value !== 'string') return it;
        const q = qualifyValue('steering', it.value, ctx);
        if (q === undefined) return it;
        if (!q.ok) {
          out.problems.push(at(file, it, q.message));
          return it;
        }
        return { ...it, value: q.value };
      });
      return { ...e, value: { ...v, items } };
    }
    return { ...e, value: walk(v) };
  };
  return { tree: walk(tree), ...out };
}

type Qualified = { ok: true; value: string } | { ok: false; message: string } | undefined;

/** One value of a key that names something: its qualified form, or why it cannot be used. */
export function qualifyValue(key: string, value: string, ctx: QualifyContext): Qualified {
  const colon = value.indexOf(':');
  const ns = colon > 0 ? value.slice(0, colon) : null;
  const bare = colon > 0 ? value.slice(colon + 1) : value;
  const own = ns === null || ns === ctx.name || ns === ctx.namespace;
  const foreign = (what: string): Qualified => ({
    ok: false,
    message: `${key} \`${value}\` names ${what}: an add-on is self-contained and uses only its own components`,
  });
  switch (key) {
    case 'extends':
      if (!own) return foreign(`add-on \`${ns}\``);
      return { ok: true, value: `${ctx.namespace}:${bare}` };
    case 'steering':
      if (!own) return foreign(`add-on \`${ns}\``);
      return { ok: true, value: `${ctx.namespace}:${bare}` };
    case 'skill':
      if (ns === PACKAGED) return { ok: true, value };
      if (!own) return foreign(`add-on \`${ns}\``);
      if (!ctx.ownSkills.has(bare))
        return { ok: false, message: `skill \`${value}\`: the add-on has no skills/${bare}/SKILL.md` };
      return { ok: true, value: `${ctx.namespace}:${bare}` };
    case 'profile': {
      if (!own) return foreign(`add-on \`${ns}\``);
      const mine = ctx.ownProfiles.has(bare);
      const required = ns === null && ctx.profiles.includes(bare);
      if (mine && required)
        return {
          ok: false,
          message: `profile \`${bare}\` is both in profiles.yaml and in \`requires.profiles\`: rename one`,
        };
      if (required) return { ok: true, value: bare };
      if (mine) return { ok: true, value: `${ctx.namespace}:${bare}` };
      return {
        ok: false,
        message: `profile \`${value}\` is neither in the add-on's profiles.yaml nor in \`requires.profiles\` (${list(ctx.profiles)})`,
      };
    }
    case 'harness':
    case 'escalation_harness':
      if (key === 'escalation_harness' && value === 'item') return { ok: true, value };
      if (ctx.harnesses.includes(value)) return { ok: true, value };
      return {
        ok: false,
        message: `${key} \`${value}\` is not in \`requires.harnesses\` (${list(ctx.harnesses)}): an add-on's tasks run only on the harnesses it requires`,
      };
    default:
      return undefined;
  }
}
