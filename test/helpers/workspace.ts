import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { git, makeRepo } from './git.js';
import { startJig, tempHome, type JigProcess } from './server.js';

export interface WorkspaceWorld {
  jig: JigProcess;
  home: string;
  root: string;
  api: string;
  web: string;
}

/**
 * A root repository with two submodule members (`services/api`, `apps/web`), each also connected
 * as a repository of its own, and a workspace `all` over them in repos.yaml.
 */
export async function workspaceWorld(
  chains: Record<string, string>,
  opts: {
    pointer?: 'ignore' | 'bump';
    home?: string;
    members?: Record<string, unknown>;
    /** Keys merged into a repository's repos.yaml entry, by id (shop, api, web). */
    entries?: Record<string, Record<string, unknown>>;
    /** Other files of config/ (harnesses.yaml, policy.yaml), by name. */
    config?: Record<string, string>;
  } = {},
): Promise<WorkspaceWorld> {
  const home = opts.home ?? tempHome();
  const api = makeRepo({ 'api.go': 'package api\n' });
  const web = makeRepo({ 'web.ts': 'export {};\n' });
  const root = makeRepo({ 'README.md': '# shop\n' });
  for (const [path, repo] of [
    ['services/api', api],
    ['apps/web', web],
  ] as const)
    git(root, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', repo, path);
  git(root, 'commit', '-qm', 'add submodules');
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  for (const [id, text] of Object.entries(chains))
    writeFileSync(join(home, 'config', 'chains', `${id}.yaml`), text);
  for (const [name, text] of Object.entries(opts.config ?? {}))
    writeFileSync(join(home, 'config', name), text);
  const entry = (path: string, id: string) => ({
    path,
    id,
    test_command: '',
    setup_command: '',
    ...opts.entries?.[id],
  });
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    stringify({
      repos: [entry(root, 'shop'), entry(api, 'api'), entry(web, 'web')],
      workspaces: {
        all: {
          root: 'shop',
          root_pointer_default: opts.pointer ?? 'ignore',
          members: opts.members ?? {
            api: { repository: 'api', path: 'services/api' },
            web: { repository: 'web', path: 'apps/web' },
          },
        },
      },
    }),
  );
  const jig = await startJig({ home });
  return { jig, home, root, api, web };
}
