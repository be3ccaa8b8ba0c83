/** Release channels of `jig admin update`, most stable first; each reads the npm dist-tag of its name (stable: `latest`). */
export const CHANNELS = ['stable', 'rc', 'beta', 'alpha'] as const;
export type Channel = (typeof CHANNELS)[number];
