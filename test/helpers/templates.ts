import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, startJig, tempHome, type JigProcess } from './server.js';

export const DEFAULTS = join(repoRoot, 'defaults', 'config');
export const STEERING = readFileSync(join(DEFAULTS, 'library.yaml'), 'utf8');
export const HOUSE_RULES = 'Indent with tabs. Keep functions short.';

/** A chain whose one task names a harness that does not exist. */
export const BROKEN_CHAIN = `description: Broken on purpose.
nodes:
  - id: build
    tasks:
      - id: run
        kind: agent
        harness: claud
        prompt: Do it.
`;
export const BROKEN_PROBLEM = {
  path: 'build.main.run',
  field: 'harness',
  message: 'harness `claud` is not a harness in harnesses.yaml; did you mean `claude`?',
  file: 'chains/broken.yaml',
  line: 7,
  col: 18,
};

/** Jig on a home holding the seeded config plus a repo-level steering entry, and that repo. */
export async function templatesJig(): Promise<{ jig: JigProcess; home: string; repoDir: string }> {
  const home = tempHome();
  // The seeded files, plus one more steering entry, so the preview has a repo's steering to show.
  cpSync(DEFAULTS, join(home, 'config'), { recursive: true });
  writeFileSync(
    join(home, 'config', 'library.yaml'),
    `${STEERING}  house-rules:\n    instructions: ${HOUSE_RULES}\n`,
  );
  const repoDir = join(tempHome('jig-repo-'), 'repo');
  mkdirSync(repoDir, { recursive: true });
  writeFileSync(
    join(home, 'config', 'repos.yaml'),
    `repos:\n  - path: ${repoDir}\n    test_command: ""\n    steering: [house-rules, project-standards]\n`,
  );
  const jig = await startJig({ home });
  return { jig, home, repoDir };
}
