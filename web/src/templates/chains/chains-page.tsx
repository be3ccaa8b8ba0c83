import { Coming } from '../../shell/shell.js';

/** Chains: built by the board's part 2. */
export function ChainsPage() {
  return <Coming title="Chains" />;
}
