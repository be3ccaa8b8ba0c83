import type { DiffFile } from '../../../src/contract/review.js';

/** The changed files by folder, each with its Viewed box and a link to its diff. */
export function FileTree({
  files,
  busy,
  onViewed,
}: {
  files: DiffFile[];
  busy: ReadonlySet<string>;
  onViewed: (path: string, viewed: boolean) => void;
}) {
  const dirs = new Map<string, DiffFile[]>();
  for (const f of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    const cut = f.path.lastIndexOf('/');
    const dir = cut < 0 ? '' : f.path.slice(0, cut);
    dirs.set(dir, [...(dirs.get(dir) ?? []), f]);
  }
  const viewed = files.filter((f) => f.viewed).length;
  return (
    <nav className="rv-tree" aria-label="changed files">
      <div className="muted small">
        {viewed} of {files.length} viewed
      </div>
      <ul>
        {[...dirs].map(([dir, list]) => (
          <li key={dir}>
            {dir && <div className="rv-dir">{dir}/</div>}
            <ul>
              {list.map((f) => {
                const name = f.path.slice(dir ? dir.length + 1 : 0);
                return (
                  <li key={f.path} className={f.viewed ? 'rv-done' : undefined}>
                    <input
                      type="checkbox"
                      aria-label={`Viewed ${f.path}`}
                      checked={f.viewed}
                      disabled={busy.has(f.path)}
                      onChange={(e) => onViewed(f.path, e.target.checked)}
                    />
                    <a href={`#file-${f.path}`} title={f.path}>
                      {name}
                    </a>
                    <span className={`rv-st rv-st-${f.status}`} title={f.status}>
                      {f.status.charAt(0).toUpperCase()}
                    </span>
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  );
}
