import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Document, isMap, isScalar, parseDocument } from 'yaml';
import { writeFileAtomic } from './atomic-file.js';
import { jigHome } from './discover.js';

/**
 * The access files of this machine's Jig home, which `jig admin password` and `jig admin
 * rotate-tokens` change directly rather than through the API: a password must be settable before
 * any server runs (it is what makes a network bind usable), and the token files are the
 * credentials themselves. A running server notices either change at its next request (it stats
 * both files), so no restart or reload call is needed.
 */

/** The config dir, chosen as runtime/home/paths.ts chooses it (the client may not import runtime/). */
export function configDirOf(env: NodeJS.ProcessEnv = process.env): string {
  if (env.JIG_CONFIG_DIR && env.JIG_CONFIG_DIR.trim() !== '') return resolve(env.JIG_CONFIG_DIR);
  if (env.JIG_TEMPLATES_DIR && env.JIG_TEMPLATES_DIR.trim() !== '') return resolve(env.JIG_TEMPLATES_DIR);
  return join(jigHome(env), 'config');
}

const NEW_FILE_COMMENT =
  ' Network access to the board and API; see docs/security.md.\n' +
  ' password_hash is written by `jig admin password`.';

/**
 * Sets (or, with null, clears) `password_hash` in access.yaml. The file is edited as a YAML
 * document, so every comment and every other key stays as the user left it; a file that does not
 * parse is left untouched. Written 0600: the hash is not the password, but it is what a guesser
 * would want.
 */
export function writePasswordHash(hash: string | null, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDirOf(env);
  const path = join(dir, 'access.yaml');
  let text: string | null = null;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  let doc: Document;
  if (text === null) {
    doc = new Document({});
    doc.commentBefore = NEW_FILE_COMMENT;
  } else {
    doc = parseDocument(text, { uniqueKeys: true });
    const first = doc.errors[0];
    if (first) {
      const at = first.linePos?.[0];
      throw new Error(
        `${path}${at ? `:${at.line}:${at.col}` : ''}: ${first.message.split('\n')[0]}; fix it first (nothing was changed)`,
      );
    }
    if (doc.contents !== null && !isMap(doc.contents))
      throw new Error(`${path}: the file must be a mapping of keys; fix it first (nothing was changed)`);
  }
  // Changing the node in place keeps a comment written on the same line.
  if (!isScalar(doc.get('password_hash', true))) doc.set('password_hash', doc.createNode(hash));
  const node = doc.get('password_hash', true);
  if (isScalar(node)) {
    node.value = hash;
    node.type = hash === null ? 'PLAIN' : 'QUOTE_DOUBLE';
  }
  mkdirSync(dir, { recursive: true });
  // lineWidth 0: the long hash stays on one line, and no other line gets folded either.
  writeFileAtomic(path, doc.toString({ lineWidth: 0 }), 0o600);
  return path;
}

export type TokenName = 'mcp' | 'trigger';

/** Replaces the named token files (0600) with new random tokens; answers each file written. */
export function rotateTokens(
  names: readonly TokenName[],
  env: NodeJS.ProcessEnv = process.env,
): Record<TokenName, string | null> {
  const runDir = join(jigHome(env), 'run');
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const written: Record<TokenName, string | null> = { mcp: null, trigger: null };
  for (const name of names) {
    const path = join(runDir, `${name}-token`);
    // 256 bits, like the tokens the server makes at first start (runtime/home/tokens.ts).
    writeFileAtomic(path, `${randomBytes(32).toString('base64url')}\n`, 0o600);
    written[name] = path;
  }
  return written;
}
