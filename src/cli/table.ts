/**
 * Terminal output for people: column headers and colour on a TTY; plain tab-separated rows with no
 * header when stdout is a pipe, so scripts can `cut -f`. `NO_COLOR` (any value) drops colour only;
 * `--json` callers never reach here.
 */

export interface Style {
  /** Headers and aligned columns (stdout is a terminal). */
  tty: boolean;
  /** ANSI colour (a terminal, and no NO_COLOR). */
  colour: boolean;
}

export function outputStyle(stream: NodeJS.WriteStream = process.stdout): Style {
  const tty = stream.isTTY === true;
  const noColour = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';
  return { tty, colour: tty && !noColour };
}

const codes = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
} as const;
export type Colour = keyof typeof codes;

export function paint(style: Style, colour: Colour | null, text: string): string {
  if (!style.colour || colour === null) return text;
  const [on, off] = codes[colour];
  return `\u001b[${on}m${text}\u001b[${off}m`;
}

// Escape sequences take no columns on screen.
const visible = (s: string): number => s.replace(/\u001b\[[0-9;]*m/g, '').length;

/** A cell: its text and, on a colour terminal, its colour. */
export type Cell = string | { text: string; colour: Colour | null };

/**
 * The rows as lines: on a TTY a bold header and columns padded to line up (the last column is never
 * padded); otherwise each row's cells joined by tabs.
 */
export function table(style: Style, headers: readonly string[], rows: readonly Cell[][]): string {
  const text = (c: Cell): string => (typeof c === 'string' ? c : c.text);
  if (!style.tty) return rows.map((r) => `${r.map(text).join('\t')}\n`).join('');
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => visible(text(r[i] ?? '')))));
  const line = (cells: string[]): string =>
    `${cells
      .map((c, i) =>
        i === cells.length - 1 ? c : c + ' '.repeat(Math.max(0, (widths[i] ?? 0) - visible(c))),
      )
      .join('  ')
      .trimEnd()}\n`;
  const head = line(headers.map((h) => paint(style, 'bold', h)));
  return (
    head +
    rows.map((r) => line(r.map((c) => (typeof c === 'string' ? c : paint(style, c.colour, c.text))))).join('')
  );
}

/** The colour a display status is shown in. */
export function statusColour(status: string): Colour | null {
  switch (status) {
    case 'running':
    case 'queued':
    case 'waiting':
      return 'green';
    case 'needs_you':
    case 'rate_limited':
      return 'yellow';
    case 'cancelled':
    case 'abandoned':
    case 'failed':
      return 'red';
    case 'done':
    case 'completed':
      return 'cyan';
    case 'archived':
    case 'paused':
      return 'dim';
    default:
      return null;
  }
}
