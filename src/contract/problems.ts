/** A problem is data, not an exception: everything a save or load would refuse, with its place. */
export interface Problem {
  path: string;
  field: string | null;
  message: string;
  file: string;
  line: number | null;
  col: number | null;
}

/** `file:line:col: message`, the form lint tools and editors understand. */
export function formatProblem(p: Problem): string {
  const where = p.line === null ? p.file : `${p.file}:${p.line}:${p.col ?? 1}`;
  const what = p.field ? `${p.path ? `${p.path}.` : ''}${p.field}: ` : p.path ? `${p.path}: ` : '';
  return `${where}: ${what}${p.message}`;
}
