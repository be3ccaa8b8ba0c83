/**
 * A dollar amount as a person reads it in a reason or a line of output: two decimals when they say
 * it exactly, else as many (up to six, what Jig stores) as it takes to be true, so a cap of
 * $0.0001 never reads "0.00".
 */
export function usdText(v: number): string {
  const two = v.toFixed(2);
  if (Math.abs(Number(two) - v) < 5e-7) return two;
  return v.toFixed(6).replace(/0+$/, '');
}
