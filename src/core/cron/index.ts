/** Jig's cron dialect (spec: service.md, Cron syntax): parse, match, next fire, format. */
export type { CompiledCron, CronFieldName } from './fields.js';
export { CRON_FIELDS } from './fields.js';
export type { CronError, CronErrorKind } from './errors.js';
export { parseCron, type CronParse } from './parse.js';
export { HORIZON_YEARS, matches, nextFireAfter } from './next-fire.js';
export { formatCron } from './format.js';
