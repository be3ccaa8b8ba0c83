import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The bytes a file or folder takes (the files' apparent sizes, as `du --apparent-size -b`), links
 * not followed, so a worktree's symlink to somewhere large counts as the link alone. A path that
 * is not there takes nothing; one that vanishes while being walked counts as far as it was read.
 */
export async function diskUse(path: string | null): Promise<number> {
  if (path === null) return 0;
  let total = 0;
  const stack = [path];
  while (stack.length > 0) {
    const p = stack.pop()!;
    let st;
    try {
      st = await lstat(p);
    } catch {
      continue;
    }
    total += st.size;
    if (!st.isDirectory()) continue;
    try {
      for (const name of await readdir(p)) stack.push(join(p, name));
    } catch {
      // Unreadable: counted as the folder itself.
    }
  }
  return total;
}
