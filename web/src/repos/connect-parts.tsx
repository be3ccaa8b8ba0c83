import type { RepoConnect } from './use-repo-connect.js';

/** The path of a checkout and "Look at it", which probes it. */
export function PathForm({ c, className, size }: { c: RepoConnect; className: string; size?: number }) {
  return (
    <form
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        void c.look();
      }}
    >
      <label>
        Path of a git checkout on this machine
        <input
          value={c.path}
          size={size}
          onChange={(e) => c.setPath(e.target.value)}
          placeholder="/home/me/src/project"
          required
        />
      </label>
      <button type="submit">Look at it</button>
    </form>
  );
}

/**
 * The test and setup commands the probe proposed, to edit before connecting. `setupBox` offers "No
 * setup needed" beside the setup command; without it an empty setup command says the same.
 */
export function CommandFields({ c, setupBox, size }: { c: RepoConnect; setupBox: boolean; size?: number }) {
  return (
    <>
      <label>
        Test command (empty: the repository has no tests)
        <input value={c.tests} size={size} onChange={(e) => c.setTests(e.target.value)} />
      </label>
      {setupBox ? (
        <>
          <label>
            Setup command
            <input
              value={c.noSetup ? '' : c.setup}
              size={size}
              disabled={c.noSetup}
              onChange={(e) => c.setSetup(e.target.value)}
            />
          </label>
          <label className="check">
            <span>
              <input type="checkbox" checked={c.noSetup} onChange={(e) => c.setNoSetup(e.target.checked)} />{' '}
              No setup needed
            </span>
          </label>
        </>
      ) : (
        <label>
          Setup command (empty: nothing to set up)
          <input
            value={c.setup}
            size={size}
            onChange={(e) => {
              c.setSetup(e.target.value);
              c.setNoSetup(false);
            }}
          />
        </label>
      )}
    </>
  );
}
