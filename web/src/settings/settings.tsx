import { Coming } from '../shell/shell.js';

/** Settings: built by the board's part 2. */
export default function Settings() {
  return <Coming title="Settings" />;
}
