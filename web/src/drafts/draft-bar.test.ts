import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DraftBar } from './draft-bar.js';
import type { AreaDraft, Draft } from './use-area-draft.js';

const result = (changes: number, problems: number): Draft['result'] =>
  ({
    changes: Array.from({ length: changes }, (_, i) => ({
      kind: 'set',
      path: `p${i}`,
      summary: 's',
      file: null,
    })),
    problems: Array.from({ length: problems }, () => ({
      path: 'x',
      field: null,
      message: 'bad',
      file: 'f',
      line: 1,
      col: null,
    })),
    impact: null,
    yaml_error: null,
  }) as unknown as Draft['result'];

const area = (draft: Partial<Draft>, over: Partial<AreaDraft> = {}): AreaDraft => ({
  draft: { draft: true, updated_at: 'now', result: result(2, 1), ...draft } as Draft,
  loadError: null,
  refusal: null,
  busy: false,
  apply: async () => true,
  barBusy: false,
  error: null,
  stale: null,
  undo: async () => true,
  rebase: async () => true,
  discard: async () => true,
  publish: async () => true,
  ...over,
});

const render = (d: AreaDraft) => renderToStaticMarkup(createElement(DraftBar, { d, label: 'policy.yaml' }));

describe('DraftBar', () => {
  it('is a Draft region saying what is pending, with its moves', () => {
    const html = render(area({}));
    expect(html).toContain('role="region" aria-label="Draft"');
    expect(html).toContain('Draft: 2 changes, 1 to fix');
    for (const b of ['Undo', 'Discard draft', 'Review &amp; publish'])
      expect(html).toContain(`>${b}</button>`);
  });

  it('says the file is the published one when no draft is open, its moves off', () => {
    const html = render(area({ draft: false, result: result(0, 0) }));
    expect(html).not.toContain('role="region"');
    expect(html).toContain('No unpublished changes: this is the published policy.yaml.');
    expect(html.match(/disabled=""/g)).toHaveLength(3);
  });

  it("shows an op's refusal and a stale publish's diff", () => {
    const html = render(
      area(
        {},
        {
          refusal: 'not a number',
          stale: { detail: 'published since', files: [{ file: 'policy.yaml', diff: '+a' }] },
        },
      ),
    );
    expect(html).toContain('not a number');
    expect(html).toContain('Rebase on the file on disk');
  });
});
