import { useQuery } from '@tanstack/react-query';
import type { AnswerOf, Item } from '../api.js';
import { itemCommitsQuery } from '../queries.js';

type Branch = AnswerOf<'itemCommits'>['branches'][number];

/** What a person does with a branch Jig left: merge it, or push it for a merge request. */
function NextSteps({ item, b }: { item: Item; b: Branch }) {
  const base = b.base_branch ?? 'your base branch';
  const hasMr = (item.merge_requests ?? []).length > 0;
  return (
    <ul className="next-steps small">
      <li>
        Merge it:{' '}
        <code>
          git -C {b.repo} merge {b.branch}
        </code>{' '}
        with {base} checked out
      </li>
      {!hasMr && (
        <li>
          Or open a merge request:{' '}
          <code>
            git -C {b.repo} push -u origin {b.branch}
          </code>
          , then open it on your forge
        </li>
      )}
      <li>
        See it:{' '}
        <code>
          git -C {b.repo} log {b.branch}
        </code>
        ; its worktree: <code>jig repo path {item.id}</code>
      </li>
    </ul>
  );
}

function BranchView({ item, b }: { item: Item; b: Branch }) {
  const where = b.member !== undefined ? ` (member ${b.member})` : '';
  if (!b.exists)
    return (
      <p>
        Branch <code>{b.branch}</code> is no longer in {b.repo}
        {where}.
      </p>
    );
  if (b.commits.length === 0)
    return (
      <p>
        Nothing was committed on <code>{b.branch}</code> in {b.repo}
        {where}: there is no change to merge.
      </p>
    );
  const n = b.commits.length;
  return (
    <>
      <p>
        The change is on branch <code>{b.branch}</code> in {b.repo}
        {where}, {n}
        {b.more ? '+' : ''} commit{n === 1 && !b.more ? '' : 's'}:{' '}
        {b.merged ? (
          <>
            merged into <code>{b.base_branch}</code>.
          </>
        ) : (
          <>
            not merged
            {b.base_branch ? (
              <>
                {' '}
                into <code>{b.base_branch}</code>
              </>
            ) : (
              ''
            )}{' '}
            yet.
          </>
        )}
      </p>
      <ul className="branch-commits" aria-label={`commits on ${b.branch}${where}`}>
        {b.commits.map((c) => (
          <li key={c.sha}>
            <code>{c.short}</code> {c.subject}
          </li>
        ))}
      </ul>
      {!b.merged && <NextSteps item={item} b={b} />}
    </>
  );
}

/**
 * A completed item's change: which branch holds it, its commits, whether the base has them, and
 * what to do next, since Jig leaves the merge to the person (the `manual` chain opens no request).
 */
export function ItemBranches({ item }: { item: Item }) {
  const q = useQuery(itemCommitsQuery(item));
  if (q.isError) return <p role="alert">Where the change is could not be read: {q.error.message}</p>;
  if (!q.data || q.data.branches.length === 0) return null;
  return (
    <section className="item-branches" aria-label="where the change is">
      <h2>Where the change is</h2>
      {q.data.branches.map((b) => (
        <BranchView key={`${b.member ?? ''}:${b.repo}`} item={item} b={b} />
      ))}
    </section>
  );
}
