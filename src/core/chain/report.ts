import type { Problem } from '../../contract/problems.js';
import { locate, type ANode, type PathSeg } from '../config/tree.js';
import { describeChainPath } from './paths.js';

/** Builds a problem at a data path of the merged chain: canonical path, field, file, line, col. */
export type Report = (dataPath: readonly PathSeg[], message: string, mode?: 'key' | 'value') => Problem;

export function reporter(data: unknown, tree: ANode): Report {
  return (dataPath, message, mode = 'value') => ({
    ...describeChainPath(data, dataPath),
    message,
    ...locate(tree, dataPath, mode),
  });
}
