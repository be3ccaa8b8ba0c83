import { Coming } from '../../shell/shell.js';

/** Harnesses: built by the board's part 2. */
export function HarnessesPage() {
  return <Coming title="Harnesses" />;
}
