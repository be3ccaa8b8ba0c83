import { JigError } from '../../contract/errors.js';

/**
 * A file path a person or agent names in a review: relative to the worktree, never absolute and
 * never with a `..` segment (the spec's rule for threads, used for viewed marks too), so nothing
 * taken from a request can name a file outside the item's changes. Answers it normalised.
 */
export function safeRelativePath(raw: string, field: string): string {
  const refuse = (why: string): never => {
    throw new JigError('validation_failed', { reason: `${field}: ${why}` });
  };
  if (raw.includes('\0')) refuse('a path has no NUL character');
  if (raw.startsWith('/') || /^[A-Za-z]:[\\/]/.test(raw) || raw.startsWith('\\'))
    refuse(`${raw} is absolute; name the file relative to the worktree`);
  if (raw.split(/[\\/]/).includes('..')) refuse(`${raw} contains ..; name the file relative to the worktree`);
  if (raw.endsWith('/')) refuse(`${raw} names a folder, not a file`);
  const path = raw
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
  if (path === '') refuse(`${raw} names no file`);
  return path;
}
