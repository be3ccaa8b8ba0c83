/** What git leaves in a worktree's git dir while a rebase or merge is unfinished. */
export const OPEN_OPERATIONS = ['rebase-merge', 'rebase-apply', 'MERGE_HEAD'] as const;
