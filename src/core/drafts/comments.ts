import { Lexer } from 'yaml';

/** Whether YAML text has a comment (a `#` token; one inside a quoted string is not). */
export function hasComments(text: string | null): boolean {
  if (text === null) return false;
  for (const token of new Lexer().lex(text)) if (token.startsWith('#')) return true;
  return false;
}

/** The result object's `warnings`: a file an op rewrote whole, whose published comments a publish drops. */
export function commentWarnings(
  rewritten: readonly string[],
  published: Record<string, string | null>,
): { file: string; message: string }[] {
  return rewritten
    .filter((file) => hasComments(published[file] ?? null))
    .map((file) => ({
      file,
      message: `an edit rewrote ${file} whole: publishing drops the comments of the published file (edit its text to keep them)`,
    }));
}
