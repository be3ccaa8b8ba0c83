import { Coming } from '../shell/shell.js';

/** The review page: built by the board's part 2. */
export default function ReviewPage() {
  return <Coming title="Review" />;
}
