// Runs `jig serve`'s CommonJS bundle with V8's code cache (ADR 0028): the first start compiles the
// code and, as it exits, keeps what V8 compiled; later starts take it instead of parsing and
// compiling some 7 MB of JavaScript again (a fifth of a start's CPU). Node 20 offers no such cache
// for ES modules or for require(), hence this small loader (Node 22's module.enableCompileCache
// would replace it).
import { isAscii } from 'node:buffer';
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

const SAVE_AFTER_MS = 5_000;

/*
 * Where a cache may be: beside the bundle (a checkout, or an install the user owns), else in the
 * temp directory (a global install the user cannot write to). The bundle's name holds a hash of its
 * content and V8 checks its own version and flags, so a cache never meets code it was not made from.
 */
const places = (file) => {
  const name = `${basename(file)}.${process.version}-${process.arch}.cache`;
  // JIG_CODE_CACHE names a directory to keep it in instead (ADR 0028).
  const chosen = process.env.JIG_CODE_CACHE;
  if (chosen) return [join(chosen, name)];
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return [join(dirname(file), name), join(tmpdir(), `jig-code-cache-${uid}`, name)];
};

/*
 * A cache is code this process runs, so it is read from, and written to, only a place no one else
 * could have written: the directory and the file are this user's (or root's, as an install's are)
 * and writable by no group or other user. Without the check, another user of the machine could
 * make /tmp/jig-code-cache-<uid> first and leave a cache in it.
 */
const ownedHere = (path, kind) => {
  try {
    const st = lstatSync(path);
    if (kind === 'dir' ? !st.isDirectory() : !st.isFile()) return false;
    if ((st.mode & 0o022) !== 0) return false;
    const uid = typeof process.getuid === 'function' ? process.getuid() : null;
    return uid === null || st.uid === uid || st.uid === 0;
  } catch {
    return false;
  }
};

const readFirst = (paths) => {
  for (const p of paths) {
    if (!ownedHere(dirname(p), 'dir') || !ownedHere(p, 'file')) continue;
    try {
      return readFileSync(p);
    } catch {
      // gone since: the next place
    }
  }
  return undefined;
};

/** Writes the cache where it can, whole or not at all (a rename: starts beside it read either). */
const save = (script, paths) => {
  let data;
  try {
    data = script.createCachedData();
  } catch {
    return;
  }
  for (const p of paths) {
    const tmp = `${p}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(p), { recursive: true, mode: 0o700 });
      if (!ownedHere(dirname(p), 'dir')) continue;
      writeFileSync(tmp, data, { mode: 0o644 });
      renameSync(tmp, p);
      return;
    } catch {
      rmSync(tmp, { force: true });
    }
  }
};

/** Runs the CommonJS file as Node's loader would, with the cache. Answers whether it was used. */
export function runWithCodeCache(file, { ascii = false } = {}) {
  // ASCII (scripts/bundle.mjs keeps it so) is read as one-byte text: half the memory and time of
  // decoding UTF-8, which made a two-byte string of all 7 MB for a few characters in comments.
  // `ascii`: the build checked it already (serve.json), so the start need not scan every byte.
  const bytes = readFileSync(file);
  const source = ascii || isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const paths = places(file);
  const cachedData = readFirst(paths);
  // The wrapper shares the first line, so line numbers in stack traces are the file's own.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  if (!used) {
    // Made once the server has started and served a little (V8 keeps every function compiled by
    // then, not only the top level), or as it exits before that; not after a usage error (exit 2),
    // which ran too little of the code to be worth keeping.
    let saved = false;
    const once = () => {
      if (!saved) save(script, paths);
      saved = true;
    };
    setTimeout(once, SAVE_AFTER_MS).unref();
    process.once('exit', (code) => {
      if (code !== 2) once();
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return used;
}
