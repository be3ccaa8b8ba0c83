// Prints where prebuild-install looks for a cached better-sqlite3 binary before it downloads one:
// npm's cache, `_prebuilds/<hash of the download URL>-<name>-v<version>-<runtime>-v<abi>-<platform>-<arch>.tar.gz`.
// .ci/run keeps the binary `npm ci` compiled there, so the next run unpacks it instead of compiling
// for a minute (docs/testing.md). The path comes from prebuild-install's own code, so it is the one
// `npm ci` will look at.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = join(root, 'node_modules', 'better-sqlite3');
const require = createRequire(join(pkgDir, 'package.json'));
// The cache npm uses for the install scripts it runs (a user's .npmrc may move it).
process.env.npm_config_cache ??= execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
const rc = require('prebuild-install/rc');
const util = require('prebuild-install/util');
const pkg = require('./package.json');
const opts = Object.assign(rc(pkg), { pkg });
process.stdout.write(`${util.cachedPrebuild(util.getDownloadUrl(opts))}\n`);
