import { closest, distance } from 'fastest-levenshtein';

/** The known word a typo most likely meant, when one is close enough to be worth saying. */
export function suggest(word: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const best = closest(word, [...known]);
  const d = distance(word, best);
  return d > 0 && d <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

export function didYouMean(word: string, known: readonly string[]): string {
  const s = suggest(word, known);
  return s ? `; did you mean \`${s}\`?` : '';
}
