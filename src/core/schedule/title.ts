import {
  codePointLength,
  CONTROL,
  dropHiddenCharacters,
  LINE_BREAK,
  TITLE_MAX,
} from '../items/title-rules.js';
import { graphemeCut } from '../text/graphemes.js';

/**
 * Cleaning a schedule's title and description before its item is filed (spec: Schedule titles).
 * A schedule runs unattended, so a title that a trigger would refuse is repaired instead: nobody
 * is there to read a 422, and skipping the run would lose it. The strict rules live in
 * `core/items/title-rules.ts`; this module shares their character classes and length.
 */

export type CleanedSchedule = { blank: false; title: string; description: string } | { blank: true };

const CONTROLS = new RegExp(CONTROL.source, 'gu');
const LINE_BREAKS = new RegExp(LINE_BREAK.source, 'g');

/**
 * One line as a title: a tab becomes a space, other controls and invisible format characters go,
 * surrounding spaces go.
 */
function cleanLine(line: string): string {
  return dropHiddenCharacters(line.replace(/\t/g, ' ').replace(CONTROLS, '')).trim();
}

const isBlank = (text: string): boolean => cleanLine(text.replace(LINE_BREAKS, ' ')) === '';

/** Lines without the blank ones at either end, joined by `\n`. */
function trimBlankLines(text: string): string {
  const lines = text.split(LINE_BREAKS);
  let from = 0;
  let to = lines.length;
  while (from < to && isBlank(lines[from]!)) from++;
  while (to > from && isBlank(lines[to - 1]!)) to--;
  return lines.slice(from, to).join('\n');
}

/** `top` above `body` with a blank line between; a blank body counts as none. */
function stack(top: string, body: string): string {
  if (isBlank(body)) return top;
  return top === '' ? body : `${top}\n\n${body}`;
}

/**
 * The UTF-16 index at which to cut `text` so that at most `max` code points stay before it. The
 * cut falls between grapheme clusters, so an accented letter or a joined emoji is not split in
 * half; only a single cluster longer than `max` (never in real text) is cut between code points.
 */
function cutIndex(text: string, max: number): number {
  const cut = graphemeCut(text, max, codePointLength);
  if (cut > 0) return cut;
  let i = 0;
  for (let n = 0; n < max; n++) i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
  return i;
}

/**
 * The title and description a schedule's item is filed with, or `{blank: true}` when both are
 * blank (the schedule is then skipped with a warning). In order:
 * 1. A line break ends the title: the first line stays, the rest (without blank lines around it)
 *    goes on top of the description. A block scalar's trailing line break leaves no rest.
 * 2. In the title, a tab becomes a space, control characters and invisible format characters
 *    (bidi overrides, zero-width spaces: `hasHiddenCharacter`) are dropped; surrounding whitespace
 *    is trimmed.
 * 3. A blank title takes the description's first non-blank line, cleaned the same way. The
 *    description keeps that line: it is the item's full text, the title only names it.
 * 4. A title over 500 characters is cut there and the cut-off text opens the description, followed
 *    by the rest of a multi-line title, so nothing written is lost or repeated and the
 *    description reads on from where the title stops. (Cutting with an ellipsis and copying the
 *    whole line into the description was the other choice; it repeats 500 characters.) A title
 *    taken from the description is only cut, since its whole line is already there.
 */
export function cleanScheduleTitle(title: string, description = ''): CleanedSchedule {
  const brk = LINE_BREAK.exec(title);
  const firstLine = brk === null ? title : title.slice(0, brk.index);
  const rest = brk === null ? '' : trimBlankLines(title.slice(brk.index + brk[0].length));

  let line = cleanLine(firstLine);
  if (line !== '') {
    const cut = codePointLength(line) > TITLE_MAX ? cutIndex(line, TITLE_MAX) : line.length;
    const overflow = line.slice(cut).trim();
    line = line.slice(0, cut).trimEnd();
    const moved = overflow === '' ? rest : rest === '' ? overflow : `${overflow}\n${rest}`;
    return { blank: false, title: line, description: stack(moved, description) };
  }

  const body = stack(rest, description);
  const taken = body
    .split(LINE_BREAKS)
    .map(cleanLine)
    .find((l) => l !== '');
  if (taken === undefined) return { blank: true };
  const cut = codePointLength(taken) > TITLE_MAX ? cutIndex(taken, TITLE_MAX) : taken.length;
  return { blank: false, title: taken.slice(0, cut).trimEnd(), description: body };
}
