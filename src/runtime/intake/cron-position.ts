import { isScalar, LineCounter, parseDocument, Scalar } from 'yaml';

/**
 * Where in a YAML file a character of a string value was written. A cron error carries its offset
 * in the value; the value's node starts at a quote, a block header or the text itself, and quotes
 * hold escapes (`\t`, `''`) and folded line breaks, so the offset is mapped through the scalar's
 * source text. When the mapping cannot be trusted (the text rebuilt from the source is not the
 * value), the answer is null and the caller points at the start of the value instead.
 */

export interface SourcePos {
  line: number;
  col: number;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_ESCAPES: Record<string, number> = { x: 2, u: 4, U: 8 };

const isBreak = (c: string | undefined): boolean => c === '\n' || c === '\r';
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

/**
 * For a flow scalar's source (quotes included), the source index of each UTF-16 unit of its value,
 * plus one entry for the end; the value as rebuilt is returned beside it for checking.
 */
function mapFlow(raw: string, type: Scalar.Type): { value: string; map: number[] } {
  const quoted = type === Scalar.QUOTE_DOUBLE || type === Scalar.QUOTE_SINGLE;
  let i = quoted ? 1 : 0;
  const end = quoted ? raw.length - 1 : raw.length;
  let value = '';
  const map: number[] = [];
  const emit = (text: string, at: number): void => {
    for (let k = 0; k < text.length; k++) map.push(at);
    value += text;
  };
  while (i < end) {
    const c = raw[i]!;
    if (isBlank(c) || isBreak(c)) {
      let j = i;
      while (j < end && isBlank(raw[j])) j++;
      if (j < end && isBreak(raw[j])) {
        // A folded line break: trailing and leading blanks go; one break is a space, n breaks n-1 newlines.
        let breaks = 0;
        let k = j;
        while (k < end) {
          if (raw[k] === '\r' && raw[k + 1] === '\n') {
            k += 2;
            breaks++;
          } else if (isBreak(raw[k])) {
            k++;
            breaks++;
          } else if (isBlank(raw[k])) k++;
          else break;
        }
        emit(breaks === 1 ? ' ' : '\n'.repeat(breaks - 1), i);
        i = k;
        continue;
      }
      for (; i < j; i++) emit(raw[i]!, i);
      continue;
    }
    if (type === Scalar.QUOTE_SINGLE && c === "'" && raw[i + 1] === "'") {
      emit("'", i);
      i += 2;
      continue;
    }
    if (type === Scalar.QUOTE_DOUBLE && c === '\\') {
      const e = raw[i + 1] ?? '';
      if (isBreak(e)) {
        // An escaped line break joins the lines with nothing between.
        let k = i + 1;
        if (raw[k] === '\r' && raw[k + 1] === '\n') k += 2;
        else k++;
        while (k < end && isBlank(raw[k])) k++;
        i = k;
        continue;
      }
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        emit(simple, i);
        i += 2;
        continue;
      }
      const digits = HEX_ESCAPES[e];
      if (digits !== undefined) {
        const hex = raw.slice(i + 2, i + 2 + digits);
        emit(String.fromCodePoint(Number.parseInt(hex, 16)), i);
        i += 2 + digits;
        continue;
      }
    }
    emit(c, i);
    i++;
  }
  map.push(i);
  return { value, map };
}

/**
 * For a block scalar (`|` or `>`), the lines of its content: each value line maps onto its
 * source line after the indentation, and the break after it onto the line break. Folding and
 * chomping change only separators and the end, so the check below compares the lines' text.
 */
function mapBlock(raw: string): { lines: { text: string; at: number }[] } {
  const headerEnd = raw.indexOf('\n');
  if (headerEnd < 0) return { lines: [] };
  const rows: { text: string; at: number }[] = [];
  let at = headerEnd + 1;
  for (const line of raw.slice(headerEnd + 1).split('\n')) {
    rows.push({ text: line.replace(/\r$/, ''), at });
    at += line.length + 1;
  }
  const indent = Math.min(
    ...rows.filter((r) => r.text.trim() !== '').map((r) => r.text.length - r.text.trimStart().length),
  );
  if (!Number.isFinite(indent)) return { lines: [] };
  return {
    lines: rows.map((r) => ({ text: r.text.slice(indent), at: r.at + Math.min(indent, r.text.length) })),
  };
}

function blockOffset(raw: string, value: string, offset: number): number | null {
  const { lines } = mapBlock(raw);
  let from = 0;
  for (const line of lines) {
    if (line.text === '' && from >= value.length) break;
    // Each value line must be the source line's text; one separator follows it.
    if (value.slice(from, from + line.text.length) !== line.text) return null;
    if (offset <= from + line.text.length) return line.at + (offset - from);
    from += line.text.length + 1;
  }
  return null;
}

/** The source offset of `offset` within the string value of `node`, or null when not certain. */
export function scalarSourceOffset(text: string, node: Scalar, offset: number): number | null {
  const range = node.range;
  if (!range || typeof node.value !== 'string') return null;
  const raw = text.slice(range[0], range[1]);
  const type = node.type ?? Scalar.PLAIN;
  if (type === Scalar.BLOCK_LITERAL || type === Scalar.BLOCK_FOLDED) {
    const at = blockOffset(raw, node.value, offset);
    return at === null ? null : range[0] + at;
  }
  const { value, map } = mapFlow(raw, type);
  if (value !== node.value || offset < 0 || offset > value.length) return null;
  return range[0] + map[offset]!;
}

/**
 * The line and column (1-based) of character `offset` of the string at `path` in the YAML `text`,
 * or null when the text has no string there or the place cannot be worked out for certain.
 * `expect` guards against text other than the one loaded (a file changed since, or a draft's text
 * checked against the file on disk): the string must be that value, starting at `start`.
 */
export function stringPosition(
  text: string,
  path: readonly (string | number)[],
  offset: number,
  expect: { value: string; start: SourcePos | null },
): SourcePos | null {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true });
  if (doc.errors.length > 0) return null;
  const node = doc.getIn(path, true);
  if (!isScalar(node) || node.value !== expect.value || !node.range) return null;
  if (expect.start) {
    const start = lc.linePos(node.range[0]);
    if (start.line !== expect.start.line || start.col !== expect.start.col) return null;
  }
  const at = scalarSourceOffset(text, node, offset);
  return at === null ? null : lc.linePos(at);
}
