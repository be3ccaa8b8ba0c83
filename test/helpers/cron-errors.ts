import type { CronFieldName } from '../../src/core/cron/fields.js';
import { parseCron } from '../../src/core/cron/parse.js';

export interface Expected {
  kind: 'unreadable' | 'out_of_range';
  field: CronFieldName | null;
  text: string;
  offset: number;
  message: string;
}

export function errorOf(text: string): Expected {
  const r = parseCron(text);
  if (r.ok) throw new Error(`expected ${JSON.stringify(text)} to be refused`);
  return { ...r.error };
}
