/** "1 gate", "3 gates": a count with its noun. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
