import type { Draft } from './draft-api.js';

type Change = Draft['result']['changes'][number];

/** The chip of a change, as a past participle: "change" beside a node named `change` read double. */
const CHIP: Record<Change['kind'], string> = {
  add: 'added',
  change: 'edited',
  remove: 'removed',
  rename: 'renamed',
};

/**
 * One line of Review & publish's changes: the chip, where, and what. The summary already names the
 * fields it changed ("changed message"), so they are not listed again after it.
 */
export function changeWords(c: Change): { chip: string; where: string; what: string } {
  const named = (c.fields ?? []).every((f) => c.summary.includes(f));
  const more = c.fields?.length && !named ? ` (${c.fields.join(', ')})` : '';
  return { chip: CHIP[c.kind], where: c.path || '(chain)', what: `${c.summary}${more}` };
}
