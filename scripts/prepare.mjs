// `prepare` builds the server and the board after `npm ci`/`npm install`. `npx jig` in a clone
// also runs it: npm installs the clone into its own cache (the bin is named like the package), and a
// full build there took a minute before the command ran. A clone that is built already skips it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = ['dist/server/main.js', 'dist/cli/main.js', 'dist/bundle/main.js', 'dist/web/index.html'].every(
  (f) => existsSync(join(root, f)),
);
if (process.env.npm_command === 'exec' && built) process.exit(0);
const r = spawnSync('npm', ['run', 'build'], {
  cwd: root,
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
process.exit(r.status ?? 1);
