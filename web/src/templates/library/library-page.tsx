import { Coming } from '../../shell/shell.js';

/** Library: built by the board's part 2. */
export function LibraryPage() {
  return <Coming title="Library" />;
}
