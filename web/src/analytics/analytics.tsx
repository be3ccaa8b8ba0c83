import { Coming } from '../shell/shell.js';

/** Analytics: built by the board's part 2. */
export default function Analytics() {
  return <Coming title="Analytics" />;
}
