import { CRON_FIELDS, type CompiledCron } from './fields.js';

/**
 * A compiled expression written back in a canonical form: `*` for a full field, otherwise a
 * comma list of values and ranges in ascending order, day of week as 0-6. Steps are not
 * reconstructed (every 15th minute comes back as `0,15,30,45`); the text means exactly the same and reads
 * back to the same sets, which is what a log line or a "fires at" hint needs.
 */
export function formatCron(cron: CompiledCron): string {
  return CRON_FIELDS.map((f) => {
    const set = cron[f.name];
    const min = f.name === 'day_of_week' ? 0 : f.min;
    return formatField(set, min);
  }).join(' ');
}

function formatField(set: readonly boolean[], min: number): string {
  const parts: string[] = [];
  let full = true;
  for (let v = min; v < set.length; v++) {
    if (set[v] !== true) {
      full = false;
      continue;
    }
    let end = v;
    while (set[end + 1] === true) end++;
    parts.push(end === v ? `${v}` : `${v}-${end}`);
    v = end;
  }
  return full ? '*' : parts.join(',');
}
