/**
 * Names a set of config files the same way wherever the CLI counts them (`admin reload`,
 * `templates lint`): the files by name, the chains as one count, so two counts that differ say
 * which files make the difference.
 */
export function describeFiles(files: readonly string[]): string {
  const chains = files.filter((f) => f.startsWith('chains/')).length;
  const named = files.filter((f) => !f.startsWith('chains/')).sort();
  const parts = [...named, ...(chains > 0 ? [`${chains} chain${chains === 1 ? '' : 's'}`] : [])];
  return parts.join(', ');
}
