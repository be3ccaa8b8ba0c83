/**
 * Edit distance where swapping two neighbouring letters counts as one edit (optimal string
 * alignment). Plain Levenshtein counts a swap as two, so `kidn` was as far from `id` (two
 * deletions) as from `kind`, and the first listed won.
 */
export function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * cols + j] = v;
    }
  }
  return at(rows - 1, cols - 1);
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** Letters of `a` that `b` holds too (with repeats), so an anagram of a word beats a fragment of it. */
function sharedLetters(a: string, b: string): number {
  const left = [...b];
  let n = 0;
  for (const ch of a) {
    const i = left.indexOf(ch);
    if (i >= 0) {
      left.splice(i, 1);
      n++;
    }
  }
  return n;
}

export interface SuggestOptions {
  /**
   * Keys the mapping already has. They are still valid there, but a typo is not a second copy of
   * a key written beside it: `kidn` next to `id:` means `kind`. Ranked after every other key.
   */
  present?: ReadonlySet<string> | readonly string[];
}

/**
 * The known word a typo most likely meant, when one is close enough to be worth saying. Ranked by
 * whether the word is still free at that place, then distance, then a longer shared start, then
 * more shared letters, then the order given.
 */
export function suggest(
  word: string,
  known: readonly string[],
  opts: SuggestOptions = {},
): string | undefined {
  // A caller hinting many words passes one Set, not a list made into a Set per word.
  const present: ReadonlySet<string> =
    opts.present instanceof Set ? opts.present : new Set(opts.present ?? []);
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best: { w: string; rank: number[] } | undefined;
  for (const w of known) {
    // The distance is at least the difference in length: skipping those first keeps a request's
    // megabyte-long key (or ten thousand keys) from costing length × length per known word.
    if (Math.abs(word.length - w.length) > limit) continue;
    const d = distance(word, w);
    if (d === 0 || d > limit) continue;
    const rank = [present.has(w) ? 1 : 0, d, -commonPrefix(word, w), -sharedLetters(word, w)];
    if (!best || less(rank, best.rank)) best = { w, rank };
  }
  return best?.w;
}

function less(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
}

export function didYouMean(word: string, known: readonly string[], opts: SuggestOptions = {}): string {
  const s = suggest(word, known, opts);
  return s ? `; did you mean \`${s}\`?` : '';
}
