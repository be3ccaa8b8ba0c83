import { diffArrays } from 'diff';

/*
 * The `yaml` library writes a document back close to, but not exactly as, it was read: a comment
 * after `key:` above a block list moves to its own line, and a folded `>-` text is joined (or
 * folded at its own width). A file written back whole would show those as changes the op never
 * made. So the op's change is taken as a line diff between the document written back untouched
 * and written back edited, and only those lines are carried onto the original text; a formatting
 * difference is taken over only where it touches a changed line.
 */

/** For each line of `b`, the index of the same line in `a` when the line diff keeps it, else -1. */
function alignment(a: string[], b: string[]): number[] {
  const out: number[] = [];
  let ia = 0;
  for (const part of diffArrays(a, b)) {
    const n = part.value.length;
    if (part.added) for (let k = 0; k < n; k++) out.push(-1);
    else if (part.removed) ia += n;
    else for (let k = 0; k < n; k++) out.push(ia++);
  }
  return out;
}

/** A run of `before` lines [a0, a1) that the lines [b0, b1) of `after` replace. */
interface Hunk {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

function hunksOf(a: string[], b: string[]): Hunk[] {
  const hunks: Hunk[] = [];
  let ia = 0;
  let ib = 0;
  let open: Hunk | null = null;
  for (const part of diffArrays(a, b)) {
    const n = part.value.length;
    if (part.added || part.removed) {
      open ??= { a0: ia, a1: ia, b0: ib, b1: ib };
      if (part.added) ib += n;
      else ia += n;
      open.a1 = ia;
      open.b1 = ib;
    } else {
      if (open) hunks.push(open);
      open = null;
      ia += n;
      ib += n;
    }
  }
  if (open) hunks.push(open);
  return hunks;
}

/**
 * `original` with the change from `before` to `after` carried onto it. `before` is `original` as
 * the YAML library writes it back untouched, `after` the edited document written the same way.
 */
export function carryLines(original: string, before: string, after: string): string {
  if (before === after) return original;
  if (before === original) return after;
  const o = original.split('\n');
  const a = before.split('\n');
  const b = after.split('\n');
  const aToO = alignment(o, a);
  const hunks: Hunk[] = [];
  for (const h of hunksOf(a, b)) {
    // Widen over lines written differently from the original, so they are replaced as a block.
    // Lines outside a hunk are the same in `before` and `after`, so both ends move together.
    while (h.a0 > 0 && aToO[h.a0 - 1] === -1) {
      h.a0--;
      h.b0--;
    }
    while (h.a1 < a.length && aToO[h.a1] === -1) {
      h.a1++;
      h.b1++;
    }
    const last = hunks[hunks.length - 1];
    if (last && last.a1 >= h.a0) {
      last.a1 = Math.max(last.a1, h.a1);
      last.b1 = Math.max(last.b1, h.b1);
    } else hunks.push(h);
  }
  const out: string[] = [];
  let io = 0;
  for (const h of hunks) {
    // The widened ends sit next to lines the original has, so they place the hunk in it.
    const t0 = h.a0 > 0 ? (aToO[h.a0 - 1] ?? -1) + 1 : 0;
    const t1 = h.a1 < a.length ? (aToO[h.a1] ?? o.length) : o.length;
    out.push(...o.slice(io, t0), ...b.slice(h.b0, h.b1));
    io = t1;
  }
  out.push(...o.slice(io));
  return out.join('\n');
}
