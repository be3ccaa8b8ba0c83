import { existsSync } from 'node:fs';
import type { CancelPreview } from '../../contract/routes/work-items/moves.js';
import { decideMove } from '../../core/items/moves.js';
import { isEnded } from '../../core/items/status.js';
import type { Store } from '../../store/database.js';
import { dependentsOf } from '../../store/dependencies.js';
import { runningSessions } from '../../store/sessions.js';
import type { ItemRecord } from '../../store/work-items.js';
import { branchExists } from './worktree-cleanup.js';

/** What a cancel of the item would do, before it is asked for (the board's cancel dialog). */
export async function cancelPreviewOf(db: Store['db'], rec: ItemRecord): Promise<CancelPreview> {
  const decision = decideMove('cancel', { status: rec.status, archived: rec.archived_at !== null });
  const hasBranch = existsSync(rec.repo) ? await branchExists(rec.repo, rec.branch) : false;
  return {
    id: rec.id,
    status: rec.status,
    allowed: decision.ok,
    detail: decision.ok ? null : `the item is ${decision.state}; ${decision.rule}`,
    result_status: 'cancelled',
    keeps_worktree: true,
    keeps_branch: true,
    worktree_path: rec.worktree_path && existsSync(rec.worktree_path) ? rec.worktree_path : null,
    branch: rec.branch,
    branch_exists: hasBranch,
    // A cancel ends what runs: the processes of the item's live sessions.
    sessions_to_stop: (await runningSessions(db, rec.id)).length,
    // What it leaves blocked: the items that come after it and have not ended.
    dependents: (await dependentsOf(db, rec.id)).filter((d) => !isEnded(d.status)),
  };
}
