import { Coming } from '../../shell/shell.js';

/** Repos: built by the board's part 2. */
export function ReposPage() {
  return <Coming title="Repos" />;
}
