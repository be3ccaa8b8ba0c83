/**
 * The submodules `.gitmodules` declares: name and path of each `[submodule "name"]` section. Parsed
 * here rather than by `git config -f`, because the probe reads repository files only through its
 * guarded reader (a FIFO or a link out of the repository must not be followed), and the two keys
 * it needs are plain `key = value` lines.
 */
export function parseGitmodules(text: string): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  let current: { name: string; path: string | null } | null = null;
  const flush = () => {
    if (current?.path) out.push({ name: current.name, path: current.path });
  };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[#;].*$/, '').trim();
    const section = /^\[\s*submodule\s+"((?:[^"\\]|\\.)+)"\s*\]$/.exec(line);
    if (section) {
      flush();
      current = { name: section[1]!.replace(/\\(.)/g, '$1'), path: null };
      continue;
    }
    if (line.startsWith('[')) {
      flush();
      current = null;
      continue;
    }
    const kv = /^path\s*=\s*(.+)$/i.exec(line);
    if (current && kv) current.path = kv[1]!.replace(/^"(.*)"$/, '$1').trim();
  }
  flush();
  return out;
}

/** A workspace member name (an identifier) from a submodule's name: lowercase, other characters as `-`. */
export function memberName(submodule: string, taken: ReadonlySet<string>): string {
  const last = submodule.split('/').filter(Boolean).pop() ?? submodule;
  let base = last
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z]+/, '');
  if (base === '') base = 'member';
  base = base.slice(0, 60);
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  return name;
}
