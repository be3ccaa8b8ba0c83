import { describe, expect, it } from 'vitest';
import { ApiError } from '../api.js';
import { staleOf } from './stale.js';

describe('staleOf', () => {
  it('reads the files and diffs of a draft_stale refusal', () => {
    const body = {
      detail: 'published since this draft began: policy.yaml',
      code: 'draft_stale',
      files: { 'policy.yaml': { published: 'a: 2\n', draft: 'a: 1\n', diff: '-a: 2\n+a: 1\n' } },
    };
    expect(staleOf(new ApiError(409, 'draft_stale', body.detail, body))).toEqual({
      detail: body.detail,
      files: [{ file: 'policy.yaml', diff: '-a: 2\n+a: 1\n' }],
    });
  });

  it('is null for any other error, and keeps a file whose diff is missing', () => {
    expect(staleOf(new ApiError(422, 'draft_has_problems', 'no'))).toBeNull();
    expect(staleOf(new ApiError(409, 'draft_nothing_to_undo', 'no'))).toBeNull();
    expect(staleOf(new Error('network'))).toBeNull();
    expect(staleOf(new ApiError(409, 'draft_stale', 'stale', { files: { 'x.yaml': {} } }))).toEqual({
      detail: 'stale',
      files: [{ file: 'x.yaml', diff: '' }],
    });
  });
});
