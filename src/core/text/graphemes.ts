/**
 * Where to cut `text` so that it keeps as many whole grapheme clusters as fit in `max`, each
 * cluster counted by `measure` (UTF-16 code units for a chat's limit, code points for a title's):
 * an emoji, a flag or an accented letter is never split into a lone half. 0 when even the first
 * cluster does not fit.
 */
export function graphemeCut(text: string, max: number, measure: (cluster: string) => number): number {
  let kept = 0;
  let cut = 0;
  for (const { segment, index } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    kept += measure(segment);
    if (kept > max) break;
    cut = index + segment.length;
  }
  return cut;
}

/** UTF-16 code units: what a JavaScript string's length counts (and Discord's and Telegram's limits). */
export const utf16Length = (s: string): number => s.length;
